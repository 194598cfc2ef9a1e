//! NumPy's `.npy` file format (version 1.0), written by hand: one header and the raw data, so
//! that Python reads vzero's arrays with `numpy.load` and vzero needs no array crate.

/// The file's first bytes: the magic string and format version 1.0.
const MAGIC: &[u8] = b"\x93NUMPY\x01\x00";
/// NumPy pads the header so that the data starts at a multiple of this.
const ALIGN: usize = 64;

/// The bytes of a `.npy` file holding `data` as a little-endian `float32` array of `shape` in C
/// (row-major) order.
pub fn f32_bytes(shape: &[usize], data: &[f32]) -> Vec<u8> {
    assert_eq!(shape.iter().product::<usize>(), data.len(), "the shape must hold the data");
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    // A one-element tuple needs its trailing comma in Python.
    let tuple = if dims.len() == 1 { format!("({},)", dims[0]) } else { format!("({})", dims.join(", ")) };
    let mut header = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': {tuple}, }}");
    let unpadded = MAGIC.len() + 2 + header.len() + 1;
    header.push_str(&" ".repeat(unpadded.next_multiple_of(ALIGN) - unpadded));
    header.push('\n');
    let mut bytes = Vec::with_capacity(MAGIC.len() + 2 + header.len() + 4 * data.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
    bytes.extend_from_slice(header.as_bytes());
    bytes.extend(data.iter().flat_map(|v| v.to_le_bytes()));
    bytes
}
