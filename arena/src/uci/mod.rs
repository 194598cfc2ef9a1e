//! Other programs as arena players (`uci:COMMAND`): the engine protocol client ([`UciAgent`]) and
//! the child process it speaks to ([`EngineProcess`]).

mod agent;
mod process;

pub use agent::{EngineBudget, UciAgent, MOVETIME_MARGIN, NODES_ALLOWANCE, STARTUP_ALLOWANCE};
pub use process::{EngineProcess, ReadError};
