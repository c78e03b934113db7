package org.ycsbpack.common.launch;

import org.ycsbpack.common.probe.Json;
import org.ycsbpack.common.probe.Sampler;
import org.ycsbpack.common.probe.Samples;
import org.ycsbpack.common.probe.ServerSource;

/**
 * The servers as {@code -watch} sees them: the facts as one JSON line (before the rounds and
 * again after them), and the rounds' samples.
 */
public interface Watched extends Sampler, AutoCloseable {
  /** The facts, read now, as one line of JSON. */
  String factsLine() throws Exception;

  @Override
  void close();

  /** A source watched in the probe's own JVM: its facts and its rounds on one connection. */
  static Watched of(ServerSource source) {
    return new Watched() {
      @Override
      public String factsLine() {
        return Json.compact(source.facts(true).toMap());
      }

      @Override
      public void sample(Samples out) {
        source.sample(out);
      }

      @Override
      public void close() {
        source.close();
      }
    };
  }
}
