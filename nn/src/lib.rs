//! Neural networks for vzero on libtorch (tch): the residual policy/value network, training
//! steps and checkpoints.
