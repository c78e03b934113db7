package org.ycsbpack.common;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The properties YCSB core 0.17.0 reads (site.ycsb.Client, CoreWorkload, Measurements,
 * DBWrapper, BasicDB, the exporters), with the numeric rules its parsers assume. The launcher
 * checks the numbers before YCSB starts, because YCSB answers a bad one with a
 * NumberFormatException trace that never names the property; the bindings use the names to
 * tell a misspelt binding property from one of YCSB's own.
 */
public final class YcsbCoreProperties {
  private YcsbCoreProperties() {
  }

  /** What a numeric property accepts. */
  public static final class NumberRule {
    public final boolean whole;
    public final long min;
    public final String meaning;

    NumberRule(boolean whole, long min, String meaning) {
      this.whole = whole;
      this.min = min;
      this.meaning = meaning;
    }
  }

  /** Numeric properties that YCSB parses with Integer.parseInt / Double.parseDouble. */
  public static final Map<String, NumberRule> NUMBERS;

  static {
    Map<String, NumberRule> m = new LinkedHashMap<>();
    m.put("recordcount", new NumberRule(true, 0, "records in the table"));
    m.put("operationcount", new NumberRule(true, 0, "operations of a run"));
    m.put("insertcount", new NumberRule(true, 0, "records this client loads"));
    m.put("insertstart", new NumberRule(true, 0, "first record number this client loads"));
    m.put("maxexecutiontime", new NumberRule(true, 0, "seconds before the run is stopped, "
        + "0 for no limit"));
    m.put("status.interval", new NumberRule(true, 1, "seconds between status lines"));
    m.put("fieldcount", new NumberRule(true, 1, "fields per record"));
    m.put("fieldlength", new NumberRule(true, 1, "bytes per field"));
    m.put("minfieldlength", new NumberRule(true, 1, "smallest field in bytes"));
    m.put("minscanlength", new NumberRule(true, 1, "fewest records per scan"));
    m.put("maxscanlength", new NumberRule(true, 1, "most records per scan"));
    m.put("zeropadding", new NumberRule(true, 1, "digits of an ordered key number"));
    m.put("core_workload_insertion_retry_limit", new NumberRule(true, 0, "retries of a failed "
        + "insert"));
    m.put("core_workload_insertion_retry_interval", new NumberRule(true, 0, "seconds between "
        + "insert retries"));
    for (String share : Arrays.asList("readproportion", "updateproportion", "insertproportion",
        "scanproportion", "readmodifywriteproportion")) {
      m.put(share, new NumberRule(false, 0, "share of the operations"));
    }
    m.put("hotspotdatafraction", new NumberRule(false, 0, "fraction of the keys that are hot"));
    m.put("hotspotopnfraction", new NumberRule(false, 0, "fraction of operations on hot keys"));
    NUMBERS = Collections.unmodifiableMap(m);
  }

  /** Every property name YCSB core reads (plus the options the launcher turns into them). */
  public static final Set<String> NAMES;

  static {
    Set<String> s = new TreeSet<>(NUMBERS.keySet());
    s.addAll(Arrays.asList("workload", "db", "exporter", "exportfile", "threadcount", "target",
        "status", "label", "dotransactions", "table", "fieldnameprefix",
        "fieldlengthdistribution", "fieldlengthhistogram", "readallfields",
        "readallfieldsbyname", "writeallfields", "dataintegrity", "requestdistribution",
        "scanlengthdistribution", "insertorder", "core_workload_insertion_keep_going_on_error",
        "measurementtype", "measurement.interval", "measurement.trackjvm",
        "measurement.histogram.verbose", "measurement.raw.output_file",
        "measurement.raw.no_summary", "histogram.buckets", "timeseries.granularity",
        "hdrhistogram.percentiles", "hdrhistogram.fileoutput", "hdrhistogram.output.path",
        "reportlatencyforeacherror", "latencytrackederrors", "basicdb.verbose",
        "basicdb.simulatedelay", "basicdb.randomizedelay", "basicdb.count"));
    NAMES = Collections.unmodifiableSet(s);
  }

  /** True for a name YCSB core reads, including its {@code htrace.*} tracing settings. */
  public static boolean isCoreProperty(String name) {
    return NAMES.contains(name) || name.startsWith("htrace.");
  }
}
