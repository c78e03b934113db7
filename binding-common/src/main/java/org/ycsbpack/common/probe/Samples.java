package org.ycsbpack.common.probe;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The JSON lines of the server probe's watch: one per node, metric and round
 * ({@code {"t_ms":..., "node":..., "metric":..., "value":...}}), and, once per node and thing
 * that failed, a {@code {"t_ms":..., "node":..., "skipped": "<sentence>"}} line.
 */
public final class Samples {
  private final List<String> lines = new ArrayList<>();
  private final Set<String> reported = new HashSet<>();
  private int failures;

  /** One reading of a metric (a cumulative counter as the server reports it, or a gauge). */
  public void add(long tMs, String node, String metric, double value) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("t_ms", tMs);
    m.put("node", node);
    m.put("metric", metric);
    m.put("value", value);
    lines.add(Json.compact(m));
  }

  /**
   * Says once per watch that {@code what} of {@code node} could not be read; later rounds that
   * fail alike add nothing.
   */
  public void skip(long tMs, String node, String what, String sentence) {
    failures++;
    if (reported.add(node + '\n' + what)) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("t_ms", tMs);
      m.put("node", node);
      m.put("skipped", sentence);
      lines.add(Json.compact(m));
    }
  }

  /** How many readings failed so far, said or not. */
  public int failures() {
    return failures;
  }

  /** The lines since the last call. */
  public List<String> drain() {
    List<String> out = new ArrayList<>(lines);
    lines.clear();
    return out;
  }
}
