//! One declaration per setting, as lc0 registers each option once with its range, default and
//! help and KataGo reads each key with its bounds: a section of settings is a struct declared
//! with [`crate::settings!`], each field with its default, its [`Range`], its one-line help
//! and, where players take it from the command line, its flag. From that one declaration follow
//! the struct, its `Default`, its config keys (serde, unknown keys refused), the range check
//! of every field ([`SettingError`] names the range), reading a value from text (`set`, which
//! the flags, uci options and Python keywords share) and the list of [`Setting`]s that the CLI
//! builds its flags from and the docs print.
//!
//! Adding a search setting is adding one field to a declaration (docs/architecture.md shows it).

use std::fmt::{Display, Write};

use thiserror::Error;

/// The most plies or iterations a count of the search names (`search.temperature_plies`,
/// `search.tactical_prior_plies`, `search.network_plies`, the fades): no game or run comes near
/// a million.
pub const MAX_PLY_COUNT: u32 = 1_000_000;

/// A value a setting holds, read from the text that a flag, a `--set` or a Python keyword gives.
pub trait SettingValue: Copy + PartialEq + PartialOrd + Display {
    /// What a value of this kind is, in words (`a number`, `visits or lcb`).
    const KIND: &'static str;
    /// Whether the values are numbers.
    const NUMERIC: bool = false;
    /// The value `text` stands for, if it is one.
    fn read(text: &str) -> Option<Self>;
    /// Whether the value can lie in a range (NaN and the infinities lie in none).
    fn finite(self) -> bool {
        true
    }
}

impl SettingValue for f32 {
    const KIND: &'static str = "a number";
    const NUMERIC: bool = true;
    fn read(text: &str) -> Option<f32> {
        text.trim().parse().ok()
    }
    fn finite(self) -> bool {
        self.is_finite()
    }
}

impl SettingValue for u32 {
    const KIND: &'static str = "a whole number";
    const NUMERIC: bool = true;
    fn read(text: &str) -> Option<u32> {
        text.trim().parse().ok()
    }
}

impl SettingValue for bool {
    const KIND: &'static str = "true or false";
    fn read(text: &str) -> Option<bool> {
        text.trim().parse().ok()
    }
}

/// How a range is said in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// Any value of the type (choices, switches).
    Any,
    /// `between LOW and HIGH`, both included (shares).
    Between,
    /// `from LOW to HIGH`, both included (counts, weights).
    FromTo,
    /// `above LOW and at most HIGH`: LOW itself is refused.
    AboveTo,
}

/// The values a setting takes. Every numeric range has a top: a value past it is a typing
/// mistake (a search that outgrows memory, a constant that makes every other term vanish),
/// refused when read rather than found as an odd search hours later.
#[derive(Clone, Copy, Debug)]
pub struct Range<T> {
    low: Option<T>,
    high: Option<T>,
    shape: Shape,
    why: &'static str,
}

impl<T: Copy> Range<T> {
    /// Every value of the type: choices and switches.
    pub const fn any() -> Range<T> {
        Range { low: None, high: None, shape: Shape::Any, why: "" }
    }

    /// From `low` to `high`, both included, said `between LOW and HIGH` (shares).
    pub const fn between(low: T, high: T) -> Range<T> {
        Range { low: Some(low), high: Some(high), shape: Shape::Between, why: "" }
    }

    /// From `low` to `high`, both included, said `from LOW to HIGH`.
    pub const fn from_to(low: T, high: T) -> Range<T> {
        Range { low: Some(low), high: Some(high), shape: Shape::FromTo, why: "" }
    }

    /// Above `low` (which is refused) and at most `high`.
    pub const fn above(low: T, high: T) -> Range<T> {
        Range { low: Some(low), high: Some(high), shape: Shape::AboveTo, why: "" }
    }

    /// The same range, its refusal followed by why the top is where it is.
    pub const fn because(self, why: &'static str) -> Range<T> {
        Range { why, ..self }
    }
}

impl<T: SettingValue> Range<T> {
    /// Whether `value` lies in the range.
    pub fn contains(&self, value: T) -> bool {
        let (Some(low), Some(high)) = (self.low, self.high) else { return true };
        let above_low = if self.shape == Shape::AboveTo { value > low } else { value >= low };
        value.finite() && above_low && value <= high
    }

    /// The range in the words of config messages: `between 0 and 1`, `from 1 to 256: why`.
    pub fn words(&self) -> String {
        let mut s = match (self.shape, self.low, self.high) {
            (Shape::Between, Some(l), Some(h)) => format!("between {l} and {h}"),
            (Shape::FromTo, Some(l), Some(h)) => format!("from {l} to {h}"),
            (Shape::AboveTo, Some(l), Some(h)) => format!("above {l} and at most {h}"),
            _ => T::KIND.to_string(),
        };
        if !self.why.is_empty() {
            let _ = write!(s, ": {}", self.why);
        }
        s
    }

    /// The range as the command line's value parsers say it (`0..=1`), or the kind of value.
    fn span(&self) -> String {
        match (self.shape, self.low, self.high) {
            (Shape::AboveTo, Some(l), Some(h)) => format!("above {l} up to {h}"),
            (_, Some(l), Some(h)) => format!("{l}..={h}"),
            _ => T::KIND.to_string(),
        }
    }

    /// `text` read and checked, or a flag's refusal that names the range as clap's parsers do
    /// (`2 is not in 0..=1`, `'x' is not a number (expected 0..=1)`).
    pub fn read(&self, text: &str) -> Result<T, String> {
        // A whole number past what the type holds (a negative count) is out of the range too.
        let whole = text.trim().parse::<i128>().is_ok();
        match T::read(text) {
            Some(value) if self.contains(value) => Ok(value),
            Some(_) => Err(format!("{} is not in {}", text.trim(), self.span())),
            None if T::NUMERIC && whole => Err(format!("{} is not in {}", text.trim(), self.span())),
            None if self.low.is_some() => Err(format!("'{text}' is not {} (expected {})", T::KIND, self.span())),
            None => Err(format!("'{text}' is not {}", T::KIND)),
        }
    }
}

/// A value refused by its setting: the key, the value as given and what it must be.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("search parameter {key} = {value}: {expected}")]
pub struct SettingError {
    /// The setting's key (`tactical_prior`).
    pub key: &'static str,
    /// The value, as given.
    pub value: String,
    /// What it must be: the range in words (`between 0 and 1`), or the kind of value.
    pub expected: String,
}

/// `text` read as a value of setting `key`, or the error that says what it takes: the
/// `FromStr` of the settings' own value types (choices), which the config and flags read.
pub fn read_value<T: SettingValue>(key: &'static str, text: &str) -> Result<T, SettingError> {
    T::read(text).ok_or_else(|| SettingError { key, value: text.to_string(), expected: T::KIND.into() })
}

/// One setting as the command line, the docs and Python see it, from its declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    /// The config key (`search.KEY`) and Python keyword.
    pub key: &'static str,
    /// The long flag of the commands that play (`tactical-prior`), if players take it.
    pub flag: Option<&'static str>,
    /// The flag value's name in usage lines (`W`).
    pub value_name: &'static str,
    /// The one-line help of the declaration.
    pub help: String,
    /// The range in words.
    pub range: String,
    /// The default, as text.
    pub default: String,
    /// What a player's name gets when the setting is on (`prior` in `+prior0.5`), if anything.
    pub tag: Option<&'static str>,
    /// Whether its values are numbers.
    pub numeric: bool,
}

impl Setting {
    /// The help with the range after it, as `--help` and the docs show it: `Share of ... (between
    /// 0 and 1)`.
    pub fn help_and_range(&self) -> String {
        format!("{} ({})", self.help.trim_end_matches('.'), self.range)
    }
}

/// The help of a field's doc comment: its first paragraph as one line (the paragraphs after
/// it are notes for readers of the code).
#[doc(hidden)]
pub fn help_of(lines: &[&str]) -> String {
    let first = lines.iter().map(|l| l.trim()).skip_while(|l| l.is_empty()).take_while(|l| !l.is_empty());
    first.collect::<Vec<_>>().join(" ")
}

/// Reads a setting's value from `text` into `field`, checked against `range`.
#[doc(hidden)]
pub fn set_from_text<T: SettingValue>(
    field: &mut T,
    key: &'static str,
    text: &str,
    range: &Range<T>,
) -> Result<(), SettingError> {
    match T::read(text) {
        Some(value) if range.contains(value) => {
            *field = value;
            Ok(())
        }
        _ => Err(SettingError { key, value: text.trim().to_string(), expected: range.words() }),
    }
}

/// Checks one field against its range.
#[doc(hidden)]
pub fn check<T: SettingValue>(key: &'static str, value: T, range: &Range<T>) -> Result<(), SettingError> {
    if range.contains(value) {
        Ok(())
    } else {
        Err(SettingError { key, value: value.to_string(), expected: range.words() })
    }
}

/// Reads a config key and refuses one that is not in `keys` (nor in `former`, the names keys had
/// before a rename) while it is read, so that the format's error points at the key (a TOML
/// line), as serde's derived structs do.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct KnownKey {
    /// The keys.
    pub keys: &'static [&'static str],
    /// Their former names.
    pub former: &'static [&'static str],
}

impl<'de> serde::de::DeserializeSeed<'de> for KnownKey {
    type Value = &'static str;
    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<&'static str, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> serde::de::Visitor<'de> for KnownKey {
    type Value = &'static str;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a setting's key")
    }
    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<&'static str, E> {
        let known = self.keys.iter().chain(self.former).find(|k| **k == key);
        known.copied().ok_or_else(|| E::unknown_field(key, self.keys))
    }
}

/// Declares a section of settings (see the [module docs](crate::setting)): a struct whose
/// fields each carry `= default, range` and, optionally, `flag "NAME" "VALUE"` (the long flag of
/// the commands that play), `tag "T"` (what a player's name gets when it is on) and `was
/// "OLD"` (the key's name before a rename, still read). An
/// `internal { ... }` block holds fields that are range-checked but no config key; a
/// `nested { ... }` block holds sections whose keys are this section's keys too (flat in the
/// config file).
#[macro_export]
macro_rules! settings {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $field:ident : $ty:ty = $default:expr, $range:expr
                    $(, flag $flag:literal $value_name:literal)? $(, tag $tag:literal)? $(, was $was:literal)? ;
            )*
        }
        $(internal {
            $(
                $(#[doc = $idoc:literal])*
                $ifield:ident : $ity:ty = $idefault:expr, $irange:expr ;
            )*
        })?
        $(nested {
            $(
                $(#[doc = $ndoc:literal])*
                $nfield:ident : $nty:ty = $ndefault:expr ;
            )*
        })?
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $name {
            $( $(#[doc = $doc])* pub $field: $ty, )*
            $($( $(#[doc = $idoc])* #[doc = ""] #[doc = "Not a config key."] pub $ifield: $ity, )*)?
            $($( $(#[doc = $ndoc])* pub $nfield: $nty, )*)?
        }

        impl Default for $name {
            fn default() -> $name {
                $name {
                    $( $field: $default, )*
                    $($( $ifield: $idefault, )*)?
                    $($( $nfield: $ndefault, )*)?
                }
            }
        }

        impl $name {
            /// Every config key of the section, nested sections' included, in declaration order.
            pub fn keys() -> &'static [&'static str] {
                static KEYS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
                    #[allow(unused_mut)]
                    let mut keys = vec![$(stringify!($field)),*];
                    $($( keys.extend(<$nty>::keys()); )*)?
                    keys
                });
                KEYS.as_slice()
            }

            /// The names keys had before they were renamed, which configs written then still
            /// use: read as the keys they became, never written.
            pub fn former_keys() -> &'static [&'static str] {
                static FORMER: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
                    #[allow(unused_mut)]
                    let mut former: Vec<&'static str> = vec![$($($was),*)?];
                    $($( former.extend(<$nty>::former_keys()); )*)?
                    former
                });
                FORMER.as_slice()
            }

            /// The key `name` stands for: the key a former name became, or `name` itself.
            pub fn current_key(name: &str) -> &str {
                $( $( if name == $was { return stringify!($field); } )? )*
                $($( if <$nty>::former_keys().contains(&name) { return <$nty>::current_key(name); } )*)?
                name
            }

            /// Every setting of the section as the command line, the docs and Python see it.
            pub fn settings() -> Vec<$crate::setting::Setting> {
                let defaults = $name::default();
                #[allow(unused_mut)]
                let mut all = vec![$(
                    $crate::setting::Setting {
                        key: stringify!($field),
                        flag: [$($flag)?].first().copied(),
                        value_name: [$($value_name)?].first().copied().unwrap_or("VALUE"),
                        help: $crate::setting::help_of(&[$($doc),*]),
                        range: {
                            let range: $crate::setting::Range<$ty> = $range;
                            range.words()
                        },
                        default: defaults.$field.to_string(),
                        tag: [$($tag)?].first().copied(),
                        numeric: <$ty as $crate::setting::SettingValue>::NUMERIC,
                    }
                ),*];
                $($( all.extend(<$nty>::settings()); )*)?
                all
            }

            /// Sets `key` (a config key of this section or a nested one) from `text`, as a
            /// flag, a uci option or a Python keyword gives it; `Ok(false)` where the section
            /// has no such key.
            pub fn set(&mut self, key: &str, text: &str) -> Result<bool, $crate::setting::SettingError> {
                match key {
                    $( stringify!($field) $(| $was)? => {
                        let range: $crate::setting::Range<$ty> = $range;
                        $crate::setting::set_from_text(&mut self.$field, stringify!($field), text, &range)?;
                        Ok(true)
                    } )*
                    _ => {
                        $($( if self.$nfield.set(key, text)? { return Ok(true); } )*)?
                        Ok(false)
                    }
                }
            }

            /// Whether `text` is a value `key` takes, or a flag's refusal that names the range
            /// (`2 is not in 0..=1`); `None` where the section has no such key.
            pub fn check_text(key: &str, text: &str) -> Option<Result<(), String>> {
                match key {
                    $( stringify!($field) => {
                        let range: $crate::setting::Range<$ty> = $range;
                        Some(range.read(text).map(|_| ()))
                    } )*
                    _ => {
                        $($( if let Some(checked) = <$nty>::check_text(key, text) { return Some(checked); } )*)?
                        None
                    }
                }
            }

            /// The value of `key` as text, if the section has it.
            pub fn get(&self, key: &str) -> Option<String> {
                match key {
                    $( stringify!($field) => Some(self.$field.to_string()), )*
                    _ => {
                        $($( if let Some(v) = self.$nfield.get(key) { return Some(v); } )*)?
                        None
                    }
                }
            }

            /// Checks every field against its range, so a bad value fails when it is read.
            pub fn validate(&self) -> Result<(), $crate::setting::SettingError> {
                $( $crate::setting::check(stringify!($field), self.$field, &{ let r: $crate::setting::Range<$ty> = $range; r })?; )*
                $($( $crate::setting::check(stringify!($ifield), self.$ifield, &{ let r: $crate::setting::Range<$ity> = $irange; r })?; )*)?
                $($( self.$nfield.validate()?; )*)?
                Ok(())
            }

            /// Reads one config key's value from `map` into its field; `Ok(false)` where the
            /// section has no such key.
            #[doc(hidden)]
            pub fn read_key<'de, A: serde::de::MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
                match key {
                    $( stringify!($field) $(| $was)? => { self.$field = map.next_value()?; Ok(true) } )*
                    _ => {
                        $($( if self.$nfield.read_key(key, map)? { return Ok(true); } )*)?
                        Ok(false)
                    }
                }
            }

            /// Writes every config key of the section into `map`.
            #[doc(hidden)]
            pub fn write_keys<M: serde::ser::SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
                $( map.serialize_entry(stringify!($field), &self.$field)?; )*
                $($( self.$nfield.write_keys(map)?; )*)?
                Ok(())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeMap;
                let mut map = serializer.serialize_map(Some(Self::keys().len()))?;
                self.write_keys(&mut map)?;
                map.end()
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            /// The keys given; each key left out keeps its default, and an unknown key is an
            /// error that lists the known ones.
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<$name, D::Error> {
                struct Keys;
                impl<'de> serde::de::Visitor<'de> for Keys {
                    type Value = $name;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str(concat!("struct ", stringify!($name)))
                    }
                    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<$name, A::Error> {
                        let mut out = $name::default();
                        let known = $crate::setting::KnownKey { keys: $name::keys(), former: $name::former_keys() };
                        // A key and its former name both given: one would silently win.
                        let mut read: Vec<&str> = Vec::new();
                        while let Some(key) = map.next_key_seed(known)? {
                            let current = $name::current_key(key);
                            if let Some(&first) = read.iter().find(|k| $name::current_key(k) == current) {
                                return Err(serde::de::Error::custom(format!(
                                    "{first} and {key} are one setting ({current}, {} its former name): give it once",
                                    if first == current { key } else { first }
                                )));
                            }
                            read.push(key);
                            out.read_key(key, &mut map)?;
                        }
                        Ok(out)
                    }
                }
                deserializer.deserialize_struct(stringify!($name), $name::keys(), Keys)
            }
        }
    };
}
