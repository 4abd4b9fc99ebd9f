package probectl

// EnvCheckpointEvery turns checkpoints on in a capture build: a checkpoint
// at every N-th quiescent point (1: every one; unset or 0: none). See
// docs/design/checkpoints.md.
const EnvCheckpointEvery = "CAPTURE_CHECKPOINT_EVERY"
