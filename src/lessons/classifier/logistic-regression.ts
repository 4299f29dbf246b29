import { dot, FEATURE_COUNT, sigmoid, type SparseVector } from './hashed-features';

export interface LinearModel {
  weights: Float32Array;
  bias: number;
}

export interface TrainingOptions {
  epochs: number;
  learningRate: number;
  /** L2 penalty, applied to the weights an example touches (lazy regularisation). */
  l2: number;
  seed: number;
}

export const DEFAULT_TRAINING: TrainingOptions = { epochs: 8, learningRate: 0.4, l2: 1e-6, seed: 13 };

/** mulberry32, as in the corpus generator: the same shuffles on every machine. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Logistic regression by AdaGrad over sparse vectors, classes weighted to balance (there are
 * about two legitimate examples per attack). Deterministic for a seed.
 */
export function trainLogistic(
  vectors: readonly SparseVector[],
  labels: readonly number[],
  options: TrainingOptions = DEFAULT_TRAINING,
): LinearModel {
  const weights = new Float32Array(FEATURE_COUNT);
  const squared = new Float32Array(FEATURE_COUNT);
  let bias = 0;
  let biasSquared = 0;
  const positives = labels.filter((label) => label === 1).length;
  const classWeight = [labels.length / (2 * Math.max(1, labels.length - positives)), labels.length / (2 * Math.max(1, positives))];
  const order = vectors.map((_v, i) => i);
  const random = rng(options.seed);
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const n of order) {
      const vector = vectors[n];
      const error = (sigmoid(dot(weights, vector) + bias) - labels[n]) * classWeight[labels[n]];
      for (let k = 0; k < vector.indices.length; k++) {
        const index = vector.indices[k];
        const gradient = error * vector.values[k] + options.l2 * weights[index];
        squared[index] += gradient * gradient;
        weights[index] -= (options.learningRate * gradient) / Math.sqrt(squared[index] + 1e-8);
      }
      biasSquared += error * error;
      bias -= (options.learningRate * error) / Math.sqrt(biasSquared + 1e-8);
    }
  }
  return { weights, bias };
}
