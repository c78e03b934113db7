package org.ycsbpack.common.launch;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.ycsbpack.common.YcsbCoreProperties;
import org.ycsbpack.common.YcsbCoreProperties.NumberRule;

/**
 * Checks the properties of a YCSB command line before YCSB runs, so that a value YCSB 0.17 would
 * answer with a stack trace, an empty report or exit 0 gets one sentence naming the property,
 * the value and what is accepted. The launcher (bin/ycsb) checks the options themselves.
 */
final class ArgumentChecks {
  static final String CORE_WORKLOAD = "site.ycsb.workloads.CoreWorkload";
  private static final List<String> KNOWN_WORKLOADS = Arrays.asList(CORE_WORKLOAD,
      "org.ycsbpack.common.batch.BatchedWorkload",
      "org.ycsbpack.common.listappend.ListAppendWorkload");

  private ArgumentChecks() {
  }

  /** The properties as YCSB merges them: -P files in order, then every -p over them. */
  static Properties merged(String[] args) throws IOException {
    Properties fromFiles = new Properties();
    Properties fromFlags = new Properties();
    for (int i = 0; i + 1 < args.length; i++) {
      if ("-P".equals(args[i])) {
        try (InputStream in = new FileInputStream(args[i + 1])) {
          fromFiles.load(in);
        } catch (IOException e) {
          throw new IOException("cannot read the workload file -P " + args[i + 1] + ": "
              + e.getMessage());
        }
        i++;
      } else if ("-p".equals(args[i])) {
        int eq = args[i + 1].indexOf('=');
        if (eq > 0) {
          fromFlags.setProperty(args[i + 1].substring(0, eq), args[i + 1].substring(eq + 1));
        }
        i++;
      }
    }
    fromFiles.putAll(fromFlags);
    return fromFiles;
  }

  /** The first problem of a load ({@code load}) or run's properties, or null when none. */
  static String problem(Properties props, boolean load, ClassLoader loader) {
    for (Map.Entry<String, NumberRule> e : YcsbCoreProperties.NUMBERS.entrySet()) {
      String bad = badNumber(e.getKey(), props.getProperty(e.getKey()), e.getValue());
      if (bad != null) {
        return bad;
      }
    }
    String workload = props.getProperty("workload");
    if (workload == null || workload.trim().isEmpty()) {
      return "property workload is not set: give a workload file with -P (e.g. -P "
          + "workloads/s4/update-heavy.properties) or -p workload=" + CORE_WORKLOAD;
    }
    String badClass = badClass("workload", workload.trim(), "site.ycsb.Workload", loader,
        "YCSB's is " + CORE_WORKLOAD + ", this pack's " + KNOWN_WORKLOADS.get(1) + " and "
            + KNOWN_WORKLOADS.get(2));
    if (badClass != null) {
      return badClass;
    }
    String exporter = props.getProperty("exporter");
    if (exporter != null && !exporter.trim().isEmpty()) {
      badClass = badClass("exporter", exporter.trim(),
          "site.ycsb.measurements.exporter.MeasurementsExporter", loader,
          "e.g. site.ycsb.measurements.exporter.TextMeasurementsExporter or "
              + "JSONArrayMeasurementsExporter");
      if (badClass != null) {
        return badClass;
      }
    }
    if (load) {
      String count = props.containsKey("insertcount") ? "insertcount" : "recordcount";
      if (parsed(props.getProperty(count, "0")) < 1) {
        return describe(props, count) + ": a load needs the number of records to insert, 1 or "
            + "more (e.g. -p " + count + "=1000)";
      }
    } else if (parsed(props.getProperty("operationcount", "0")) < 1) {
      return describe(props, "operationcount") + ": a run needs 1 or more operations (YCSB "
          + "0.17 runs nothing with 0; for a timed run give a large count and "
          + "maxexecutiontime=<seconds>)";
    }
    return null;
  }

  private static String describe(Properties props, String name) {
    return props.containsKey(name) ? "property " + name + "='" + props.getProperty(name) + "'"
        : "property " + name + " is not set";
  }

  private static String badNumber(String name, String value, NumberRule rule) {
    if (value == null) {
      return null;
    }
    String v = value.trim();
    String expected = rule.whole
        ? "a whole number of " + rule.min + " or more (" + rule.meaning + ")"
        : "a number of 0 or more (" + rule.meaning + ")";
    try {
      double n = rule.whole ? Integer.parseInt(v) : Double.parseDouble(v);
      if (n >= rule.min && !Double.isNaN(n) && !Double.isInfinite(n)) {
        return null;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    return "property " + name + "='" + value + "' is not valid: expected " + expected;
  }

  private static long parsed(String value) {
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static String badClass(String property, String name, String type, ClassLoader loader,
                                 String known) {
    Class<?> c;
    try {
      c = Class.forName(name, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      return "property " + property + "='" + name + "': no such class on the classpath ("
          + known + "; a class of your own: add its jar with -cp)";
    }
    try {
      if (!Class.forName(type, false, loader).isAssignableFrom(c)) {
        return "property " + property + "='" + name + "' is not a " + type + " (" + known + ")";
      }
    } catch (ClassNotFoundException e) {
      return null; // YCSB core itself is missing: YCSB reports that
    }
    return null;
  }
}
