import type { SanitizerResult } from '../sanitizer/sanitizer.types';
import { dot, FEATURE_BITS, FEATURE_COUNT, featurize, sigmoid } from './hashed-features';
import type { LinearModel } from './logistic-regression';

/** What `npm run train:gate` writes (gate-model.json), and what it is read back into. */
export interface StoredGateModel {
  version: 1;
  featureBits: number;
  /** int8 weights, base64; weight = byte * scale. */
  weights: string;
  scale: number;
  bias: number;
  /** Block at or above this probability; chosen on held-out training folds for <= 1% false positives. */
  threshold: number;
  /** A sentence right after a blocked one continues the instruction at or above this probability. */
  continuationThreshold: number;
  trainedOn: { adversarial: number; legitimate: number; seed: number; corpus: string };
}

export interface GateModel {
  weights: Float32Array;
  bias: number;
  threshold: number;
  continuationThreshold: number;
}

export function classifierScore(model: Pick<GateModel, 'weights' | 'bias'>, sanitized: SanitizerResult): number {
  return sigmoid(dot(model.weights, featurize(sanitized.normalized, sanitized.findings)) + model.bias);
}

/** int8 with one scale: 256 KB for 2^18 weights; the scores move by well under 0.01. */
export function storeModel(
  model: LinearModel,
  thresholds: { threshold: number; continuationThreshold: number },
  trainedOn: StoredGateModel['trainedOn'],
): StoredGateModel {
  let largest = 0;
  for (const weight of model.weights) largest = Math.max(largest, Math.abs(weight));
  const scale = largest / 127 || 1;
  const bytes = new Int8Array(model.weights.length);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.round(model.weights[i] / scale);
  return {
    version: 1,
    featureBits: FEATURE_BITS,
    weights: Buffer.from(bytes.buffer).toString('base64'),
    scale,
    bias: model.bias,
    ...thresholds,
    trainedOn,
  };
}

export function loadModel(stored: StoredGateModel): GateModel {
  if (stored.featureBits !== FEATURE_BITS)
    throw new Error(`gate model has ${stored.featureBits} feature bits, the code expects ${FEATURE_BITS}: run npm run train:gate`);
  const bytes = Buffer.from(stored.weights, 'base64');
  if (bytes.length !== FEATURE_COUNT) throw new Error('gate model weights are truncated: run npm run train:gate');
  const weights = new Float32Array(FEATURE_COUNT);
  for (let i = 0; i < FEATURE_COUNT; i++) weights[i] = ((bytes[i] << 24) >> 24) * stored.scale;
  return { weights, bias: stored.bias, threshold: stored.threshold, continuationThreshold: stored.continuationThreshold };
}
