package org.ycsbpack.common;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.ycsbpack.common.batch.BatchedWorkloadProperties;
import org.ycsbpack.common.listappend.ListAppendProperties;

/**
 * Finds the properties a binding would silently ignore: a name with the binding's prefix that is
 * none of its properties ({@code cassandra.readconsistencylvl}), and a near-miss of one of its
 * unprefixed names ({@code host} for {@code hosts}) that YCSB core and this pack's workloads do
 * not read either. Each comes with the closest known name.
 */
public final class UnknownProperties {
  private static final Set<String> WARNED_BINDINGS = new HashSet<>();

  private UnknownProperties() {
  }

  /**
   * Properties this pack's runner reads from the same workload files and passes through YCSB:
   * the warm-up bounds (scripts/lib/ycsbpack/phases/warmup.py) and the stop file of
   * {@code launch.StopFileWatcher}.
   */
  static final Set<String> RUNNER_NAMES = Set.of("warmup.maxtime", "warmup.window",
      "ycsbpack.stopfile");

  /** Names every binding knows without a prefix: YCSB core's, the runner's, the workloads'. */
  static Set<String> sharedNames() {
    Set<String> names = new HashSet<>(YcsbCoreProperties.NAMES);
    names.addAll(RUNNER_NAMES);
    for (BindingProperty p : BatchedWorkloadProperties.ALL) {
      names.add(p.name());
    }
    for (BindingProperty p : ListAppendProperties.ALL) {
      names.add(p.name());
    }
    return names;
  }

  /**
   * One sentence per unknown property: the ones with {@code prefix} that are not in
   * {@code known}, and unprefixed near-misses of a known name.
   */
  public static List<String> find(String binding, Properties props, Collection<String> known,
                                   String prefix) {
    Set<String> shared = sharedNames();
    List<String> out = new ArrayList<>();
    for (String name : new TreeSet<>(props.stringPropertyNames())) {
      if (known.contains(name) || shared.contains(name) || name.startsWith("htrace.")) {
        continue;
      }
      String nearest = closest(name, known, prefix);
      if (name.startsWith(prefix)) {
        out.add("property " + name + " is not a property of " + binding
            + (nearest == null ? "" : " (did you mean " + nearest + "?)") + "; it is ignored");
      } else if (nearest != null) {
        out.add("property " + name + " is not a property of " + binding + " nor of YCSB "
            + "(did you mean " + nearest + "?); it is ignored");
      }
    }
    return out;
  }

  /** Prints {@link #find}'s sentences as warnings, once per binding and JVM. */
  public static void warnOnce(String binding, Properties props, Collection<String> known,
                              String prefix) {
    synchronized (WARNED_BINDINGS) {
      if (!WARNED_BINDINGS.add(binding)) {
        return;
      }
    }
    for (String warning : find(binding, props, known, prefix)) {
      System.err.println("WARN " + binding + ": " + warning);
    }
  }

  /**
   * One sentence per property that is one typo away from a property of YCSB core and is not
   * known to it or to this pack's workloads ({@code readproprotion}). Bindings' own names are
   * further away from every core name than that, so they are not reported.
   */
  public static List<String> coreNearMisses(Properties props) {
    Set<String> shared = sharedNames();
    List<String> out = new ArrayList<>();
    for (String name : new TreeSet<>(props.stringPropertyNames())) {
      if (shared.contains(name) || name.startsWith("htrace.")) {
        continue;
      }
      String best = null;
      int bestDistance = Integer.MAX_VALUE;
      for (String core : YcsbCoreProperties.NAMES) {
        int d = distance(name.toLowerCase(Locale.ROOT), core.toLowerCase(Locale.ROOT));
        if (d < bestDistance) {
          bestDistance = d;
          best = core;
        }
      }
      if (bestDistance <= (name.length() <= 8 ? 1 : 2)) {
        out.add("property " + name + " is not one of YCSB's (did you mean " + best + "?); it "
            + "is ignored unless the binding reads it");
      }
    }
    return out;
  }

  /**
   * The known name nearest to {@code name}, also comparing without the prefix (a forgotten
   * {@code cassandra.}), or null when none is within a few typos.
   */
  public static String closest(String name, Collection<String> known, String prefix) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    String lower = name.toLowerCase(Locale.ROOT);
    for (String k : known) {
      String kl = k.toLowerCase(Locale.ROOT);
      int d = distance(lower, kl);
      if (kl.startsWith(prefix) && !lower.startsWith(prefix)) {
        d = Math.min(d, distance(lower, kl.substring(prefix.length())));
      }
      if (d < bestDistance) {
        bestDistance = d;
        best = k;
      }
    }
    int allowed = name.length() <= 4 ? 1 : name.length() <= 8 ? 2 : 3;
    return bestDistance <= allowed ? best : null;
  }

  /** Levenshtein distance. */
  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
