//! Choosing where the network runs.

use std::fmt;
use std::str::FromStr;

use tch::Device;

/// The device a user asks for in a config or on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DeviceChoice {
    /// The first CUDA GPU if there is one, else the CPU.
    #[default]
    Auto,
    /// The CPU, even where a GPU exists.
    Cpu,
    /// The first CUDA GPU; an error where there is none.
    Cuda,
}

/// The device choice cannot be honoured.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeviceError {
    /// Not one of the accepted names.
    #[error("unknown device '{0}' (expected auto, cpu or cuda)")]
    Unknown(String),
    /// `cuda` was asked for on a machine where libtorch finds no CUDA GPU.
    #[error("device 'cuda' asked for, but libtorch finds no CUDA GPU here (use 'auto' or 'cpu')")]
    NoCuda,
}

impl DeviceChoice {
    /// The libtorch device this choice means on this machine.
    pub fn resolve(self) -> Result<Device, DeviceError> {
        match self {
            DeviceChoice::Auto => Ok(Device::cuda_if_available()),
            DeviceChoice::Cpu => Ok(Device::Cpu),
            DeviceChoice::Cuda if tch::Cuda::is_available() => Ok(Device::Cuda(0)),
            DeviceChoice::Cuda => Err(DeviceError::NoCuda),
        }
    }
}

impl FromStr for DeviceChoice {
    type Err = DeviceError;

    fn from_str(s: &str) -> Result<DeviceChoice, DeviceError> {
        match s {
            "auto" => Ok(DeviceChoice::Auto),
            "cpu" => Ok(DeviceChoice::Cpu),
            "cuda" => Ok(DeviceChoice::Cuda),
            other => Err(DeviceError::Unknown(other.to_string())),
        }
    }
}

impl fmt::Display for DeviceChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DeviceChoice::Auto => "auto",
            DeviceChoice::Cpu => "cpu",
            DeviceChoice::Cuda => "cuda",
        })
    }
}

/// A human-readable name of a resolved device, for the line every command prints at start.
pub fn describe(device: Device) -> String {
    match device {
        Device::Cpu => "cpu".to_string(),
        Device::Cuda(i) => format!("cuda:{i}"),
        other => format!("{other:?}"),
    }
}
