//! Self-play, replay buffer, training loop, arena and run directories: the layer that turns
//! search and networks into a training run.

pub mod replay;
