package org.ycsbpack.common.probe;

/**
 * The servers of one binding, connected as the binding connects: what the server probe
 * ({@code bin/ycsb servers}) reads from them once, and each round of samples under -watch.
 */
public interface ServerSource extends Sampler, AutoCloseable {
  /**
   * Versions, settings and schema, read now.
   *
   * @param watching whether samples follow: the facts then name the metrics that cannot be read
   */
  ServerFacts facts(boolean watching);

  @Override
  void close();
}
