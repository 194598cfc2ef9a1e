//! Monte-Carlo tree search (PUCT, max-n for any number of players) over any [`rules::Game`].
