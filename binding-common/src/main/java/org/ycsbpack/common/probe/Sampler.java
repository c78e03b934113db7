package org.ycsbpack.common.probe;

/** What a watch asks every round: one sample of every metric of every node. */
@FunctionalInterface
public interface Sampler {
  /** Reads every metric of every node once into {@code out}; a node that fails is skipped. */
  void sample(Samples out);
}
