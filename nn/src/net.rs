//! The residual policy/value network (AlphaZero layout: conv trunk, policy and value heads).

use tch::nn::{self, Module, ModuleT};
use tch::{Device, Kind, Tensor};

use crate::config::{NetConfig, Trunk};
use crate::listed::{logits_at, ListedMoves};
use crate::trunk::{fold_cells, spread_cells};

/// A convolution of either dimensionality, its weights in reach: the bf16 training form
/// casts them for each forward pass, as autocast would (tch offers autocast on CUDA only).
#[derive(Debug)]
enum Conv {
    Planar(nn::Conv2D),
    Cubic(nn::Conv3D),
}

impl Conv {
    fn new(path: nn::Path, dims: usize, cin: i64, cout: i64, kernel: i64, bias: bool) -> Conv {
        let cfg = nn::ConvConfig { padding: kernel / 2, bias, ..Default::default() };
        if dims == 3 {
            Conv::Cubic(nn::conv3d(path, cin, cout, kernel, cfg))
        } else {
            Conv::Planar(nn::conv2d(path, cin, cout, kernel, cfg))
        }
    }

    /// The weights and the bias, if any.
    fn weights(&self) -> (&Tensor, Option<&Tensor>) {
        match self {
            Conv::Planar(c) => (&c.ws, c.bs.as_ref()),
            Conv::Cubic(c) => (&c.ws, c.bs.as_ref()),
        }
    }

    /// The convolution of `x`, its arithmetic in `compute` (returned in `x`'s kind) or, for
    /// `None`, as the weights and any autocast have it. Only stride 1, no dilation and same
    /// padding are built here, so the weights' shape says the padding.
    fn forward(&self, x: &Tensor, compute: Option<Kind>) -> Tensor {
        let (ws, bs) = self.weights();
        let Some(kind) = compute else {
            return match self {
                Conv::Planar(c) => c.forward(x),
                Conv::Cubic(c) => c.forward(x),
            };
        };
        let spatial = ws.dim() - 2;
        let padding: Vec<i64> = ws.size()[2..].iter().map(|k| k / 2).collect();
        let (ones, w, b) = (vec![1i64; spatial], ws.to_kind(kind), bs.map(|b| b.to_kind(kind)));
        let y = if spatial == 3 {
            x.to_kind(kind).conv3d(&w, b.as_ref(), &ones, &padding, &ones, 1)
        } else {
            x.to_kind(kind).conv2d(&w, b.as_ref(), &ones, &padding, &ones, 1)
        };
        y.to_kind(x.kind())
    }
}

/// A convolution and batch norm of either dimensionality, so one network type serves the
/// hexagonal (2-D) and cubic (3-D) boards.
#[derive(Debug)]
struct ConvBn {
    conv: Conv,
    bn: nn::BatchNorm,
}

impl ConvBn {
    fn new(path: nn::Path, dims: usize, cin: i64, cout: i64, kernel: i64) -> ConvBn {
        let bn = if dims == 3 {
            nn::batch_norm3d(&path / "bn", cout, Default::default())
        } else {
            nn::batch_norm2d(&path / "bn", cout, Default::default())
        };
        ConvBn { conv: Conv::new(&path / "conv", dims, cin, cout, kernel, false), bn }
    }

    fn forward(&self, x: &Tensor, train: bool, compute: Option<Kind>) -> Tensor {
        self.bn.forward_t(&self.conv.forward(x, compute), train)
    }
}

/// A halved trunk's way into and out of its coarse grid ([`Trunk::Halved`]): a 1x1 layer over
/// each coarse cell's folded fine cells, and one back to the fine channels before spreading.
#[derive(Debug)]
struct Halving {
    down: ConvBn,
    up: ConvBn,
}

/// One residual block: two 3x3(x3) conv-bn layers with a skip connection.
#[derive(Debug)]
struct ResBlock {
    a: ConvBn,
    b: ConvBn,
}

/// A policy/value network with its weights.
///
/// Output: policy logits `[B, policy_size]` and values `[B, players]`, each an expected score
/// in [0, 1] for the player in that seat, seats counted from the player to move. The value head
/// predicts a distribution over the game's final score vectors ([`NetConfig::outcomes`], as
/// lc0's win/draw/loss head does) and returns its expectation, so one position's values always
/// sum to the game's constant (1 for two players, 1.5 for Wellisch).
#[derive(Debug)]
pub struct PolicyValueNet {
    config: NetConfig,
    vs: nn::VarStore,
    stem: ConvBn,
    halving: Option<Halving>,
    blocks: Vec<ResBlock>,
    policy_conv: ConvBn,
    policy_out: Conv,
    value_conv: ConvBn,
    value_fc1: nn::Linear,
    value_fc2: nn::Linear,
    /// The outcome classes as a `[classes, players]` matrix.
    outcomes: Tensor,
    mask: Option<Tensor>,
}

/// Channels of the 1x1 convolution that starts the value head.
const VALUE_CHANNELS: i64 = 2;
/// Width of the value head's hidden layer.
const VALUE_HIDDEN: i64 = 128;

/// Held while weights are drawn: libtorch's random generator is global to the process, so a
/// seeded initialisation on one thread must not interleave with draws on another.
static INIT_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

impl PolicyValueNet {
    /// A freshly initialised network on `device`.
    pub fn new(config: &NetConfig, device: Device) -> PolicyValueNet {
        let _guard = INIT_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        PolicyValueNet::build(config, device)
    }

    /// A network whose initial weights are a function of `seed` alone, whatever other threads
    /// of the process do meanwhile (reproducible runs; tests run in parallel threads).
    pub fn seeded(config: &NetConfig, device: Device, seed: u64) -> PolicyValueNet {
        let _guard = INIT_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        tch::manual_seed(seed as i64);
        PolicyValueNet::build(config, device)
    }

    fn build(config: &NetConfig, device: Device) -> PolicyValueNet {
        let vs = nn::VarStore::new(device);
        let root = vs.root();
        let dims = config.spatial_dims();
        let c = config.channels as i64;
        let cin = config.input_shape[0] as i64;
        let cells = config.trunk_shape().iter().product::<usize>() as i64;
        if let Some(problem) = config.trunk_problem() {
            panic!("{problem}");
        }
        // A halved trunk's full-resolution layers (stem, policy head) have half its channels
        // and 1x1 kernels: their cost is per fine cell, 8 times the coarse cells on the cube.
        let (fine, head_kernel) = match config.trunk {
            Trunk::Full => (c, 3),
            Trunk::Halved => ((c / 2).max(1), 1),
        };
        let stem = ConvBn::new(&root / "stem", dims, cin, fine, head_kernel);
        let halving = (config.trunk == Trunk::Halved).then(|| Halving {
            down: ConvBn::new(&root / "down", dims, fine << dims, c, 1),
            up: ConvBn::new(&root / "up", dims, c, fine, 1),
        });
        let blocks = (0..config.blocks)
            .map(|i| {
                let p = &root / format!("block{i}");
                ResBlock { a: ConvBn::new(&p / "a", dims, c, c, 3), b: ConvBn::new(&p / "b", dims, c, c, 3) }
            })
            .collect();
        // A convolutional policy head (AlphaZero's for chess): one output plane per move kind,
        // enough planes to cover the policy, flattened plane-major. Variants lay their policy
        // out as kind x cell, so each plane is one kind of move from every cell; the head stays
        // small even for Weltschach's 178,432 outputs, where a dense layer would not.
        let policy_planes = config.policy_size.div_ceil(config.spatial_len()) as i64;
        let policy_conv = ConvBn::new(&root / "policy_conv", dims, fine, fine, head_kernel);
        let policy_out = Conv::new(&root / "policy_out", dims, fine, policy_planes, 1, true);
        let value_conv = ConvBn::new(&root / "value_conv", dims, c, VALUE_CHANNELS, 1);
        let value_fc1 = nn::linear(&root / "value_fc1", VALUE_CHANNELS * cells, VALUE_HIDDEN, Default::default());
        let classes = config.outcomes.len() as i64;
        assert!(config.outcomes.iter().all(|o| o.len() == config.players), "an outcome has a score per player");
        let value_fc2 = nn::linear(&root / "value_fc2", VALUE_HIDDEN, classes, Default::default());
        let flat: Vec<f32> = config.outcomes.concat();
        let outcomes = Tensor::from_slice(&flat).reshape([classes, config.players as i64]).to_device(device);
        let mask = config.board_mask.as_ref().map(|m| {
            let mut shape = vec![1i64, 1];
            shape.extend(config.input_shape[1..].iter().map(|&d| d as i64));
            Tensor::from_slice(m).reshape(&shape).to_device(device)
        });
        PolicyValueNet {
            config: config.clone(),
            vs,
            stem,
            halving,
            blocks,
            policy_conv,
            policy_out,
            value_conv,
            value_fc1,
            value_fc2,
            outcomes,
            mask,
        }
    }

    /// The network's shape.
    pub fn config(&self) -> &NetConfig {
        &self.config
    }

    /// The weights, for optimizers and checkpoints.
    pub fn var_store(&self) -> &nn::VarStore {
        &self.vs
    }

    /// The weights, mutably (loading a checkpoint).
    pub fn var_store_mut(&mut self) -> &mut nn::VarStore {
        &mut self.vs
    }

    /// The name of a weight (or batch-norm statistic) holding a NaN or infinity, if any: a
    /// diverged network, which must not be checkpointed, exported or played.
    pub fn non_finite_weight(&self) -> Option<String> {
        let mut named: Vec<(String, Tensor)> = self.vs.variables().into_iter().collect();
        named.sort_by(|a, b| a.0.cmp(&b.0));
        named.into_iter().find(|(_, t)| t.isfinite().all().int64_value(&[]) == 0).map(|(name, _)| name)
    }

    /// The device the weights live on.
    pub fn device(&self) -> Device {
        self.vs.device()
    }

    /// The outcome classes as a `[classes, players]` matrix, for the fast form.
    pub(crate) fn outcome_matrix(&self) -> &Tensor {
        &self.outcomes
    }

    /// The board mask `[1, 1, ..spatial]`, if the board does not fill its grid.
    pub(crate) fn board_mask(&self) -> Option<&Tensor> {
        self.mask.as_ref()
    }

    fn masked(&self, x: Tensor) -> Tensor {
        match &self.mask {
            Some(m) => x * m,
            None => x,
        }
    }

    /// [`PolicyValueNet::masked`] on the trunk's grid: a halved trunk's coarse cells each hold
    /// some board, so only a full one masks there.
    fn masked_trunk(&self, x: Tensor) -> Tensor {
        if self.halving.is_some() {
            x
        } else {
            self.masked(x)
        }
    }

    /// Policy logits and values for a batch shaped `[B, ..input_shape]`; `train` selects batch
    /// statistics (training) or running statistics (inference) in the batch norms.
    pub fn forward(&self, input: &Tensor, train: bool) -> (Tensor, Tensor) {
        self.forward_in(input, train, None)
    }

    /// [`PolicyValueNet::forward`] with every convolution's arithmetic in `compute` (bf16
    /// training on a CPU), the batch norms, the value head and the outputs in the input's kind;
    /// `None` computes as the weights (and any autocast) have it.
    pub fn forward_in(&self, input: &Tensor, train: bool, compute: Option<Kind>) -> (Tensor, Tensor) {
        let (policy, logits) = self.heads(input, train, compute);
        (policy, self.outcome_probabilities(&logits).matmul(&self.outcomes))
    }

    /// [`PolicyValueNet::forward_in`] with the policy logits at the `listed` indices alone
    /// (`[M]`), or every one (`[B, policy_size]`) without a list: a training step's forward
    /// pass.
    pub fn forward_listed_in(
        &self,
        input: &Tensor,
        train: bool,
        compute: Option<Kind>,
        listed: Option<&ListedMoves>,
    ) -> (Tensor, Tensor) {
        let (p, logits) = self.features(input, train, compute);
        let policy = match listed {
            None => self.whole_policy(&p, compute),
            Some(listed) => self.listed_policy(&p, listed),
        };
        (policy, self.outcome_probabilities(&logits).matmul(&self.outcomes))
    }

    /// The `listed` policy logits from the policy head's features.
    fn listed_policy(&self, p: &Tensor, listed: &ListedMoves) -> Tensor {
        let (weight, bias) = self.policy_out.weights();
        logits_at(p, weight, bias.expect("the policy's last layer has a bias"), listed)
    }

    /// Policy logits and value-head logits (one per outcome class) for a batch.
    fn heads(&self, input: &Tensor, train: bool, compute: Option<Kind>) -> (Tensor, Tensor) {
        let (p, logits) = self.features(input, train, compute);
        (self.whole_policy(&p, compute), logits)
    }

    /// Every policy logit, from the policy head's features.
    fn whole_policy(&self, p: &Tensor, compute: Option<Kind>) -> Tensor {
        self.policy_out.forward(p, compute).flatten(1, -1).narrow(1, 0, self.config.policy_size as i64)
    }

    /// The policy head's features before its last layer, and the value-head logits.
    fn features(&self, input: &Tensor, train: bool, compute: Option<Kind>) -> (Tensor, Tensor) {
        let stem = self.masked(self.stem.forward(input, train, compute).relu());
        let mut x = match &self.halving {
            Some(h) => h.down.forward(&fold_cells(&stem), train, compute).relu(),
            None => stem.shallow_clone(),
        };
        for block in &self.blocks {
            let y = self.masked_trunk(block.a.forward(&x, train, compute).relu());
            x = self.masked_trunk((block.b.forward(&y, train, compute) + x).relu());
        }
        let fine = match &self.halving {
            Some(h) => self.masked((spread_cells(&h.up.forward(&x, train, compute)) + stem).relu()),
            None => x.shallow_clone(),
        };
        let p = self.masked(self.policy_conv.forward(&fine, train, compute).relu());
        let v = self.value_conv.forward(&x, train, compute).relu().flatten(1, -1);
        let logits = self.value_fc2.forward(&self.value_fc1.forward(&v).relu());
        (p, logits)
    }

    /// The outcome distribution `[B, classes]` of value-head logits: their softmax, in fp32 even
    /// under autocast (the values' sums must hold to float error).
    fn outcome_probabilities(&self, logits: &Tensor) -> Tensor {
        logits.to_kind(Kind::Float).softmax(-1, Kind::Float)
    }

    /// Policy logits and values for `batch` positions given as one contiguous buffer, computed
    /// without gradients in inference mode.
    pub fn predict(&self, inputs: &[f32], batch: usize) -> (Tensor, Tensor) {
        let (policy, _, values) = self.predict_outcomes(inputs, batch);
        (policy, values)
    }

    /// Like [`PolicyValueNet::predict`], with the outcome distribution `[B, classes]` (over
    /// [`NetConfig::outcomes`]) that the values are the expectation of, between them.
    pub fn predict_outcomes(&self, inputs: &[f32], batch: usize) -> (Tensor, Tensor, Tensor) {
        self.predict_listed(inputs, batch, None)
    }

    /// Like [`PolicyValueNet::predict_outcomes`], with the policy logits at the `listed`
    /// indices only (`[M]`, one position's after another), the whole head's values there.
    pub fn predict_outcomes_at(&self, inputs: &[f32], batch: usize, listed: &ListedMoves) -> (Tensor, Tensor, Tensor) {
        assert_eq!(listed.positions(), batch, "a move list for each of the {batch} positions");
        self.predict_listed(inputs, batch, Some(listed))
    }

    /// Inference without gradients: the whole policy, or the `listed` logits.
    fn predict_listed(&self, inputs: &[f32], batch: usize, listed: Option<&ListedMoves>) -> (Tensor, Tensor, Tensor) {
        let x = self.input_tensor(inputs, batch);
        tch::no_grad(|| {
            let (p, logits) = self.features(&x, false, None);
            let policy = match listed {
                None => self.whole_policy(&p, None),
                Some(listed) => self.listed_policy(&p, listed),
            };
            let probabilities = self.outcome_probabilities(&logits);
            let values = probabilities.matmul(&self.outcomes);
            (policy, probabilities, values)
        })
    }

    /// Turns `batch` encoded positions in one contiguous buffer into an input tensor on the
    /// network's device, with one copy.
    pub fn input_tensor(&self, inputs: &[f32], batch: usize) -> Tensor {
        assert_eq!(inputs.len(), batch * self.config.input_len(), "input buffer does not hold {batch} positions");
        let mut shape = vec![batch as i64];
        shape.extend(self.config.input_shape.iter().map(|&d| d as i64));
        Tensor::from_slice(inputs).reshape(&shape).to_device(self.device()).to_kind(Kind::Float)
    }
}
