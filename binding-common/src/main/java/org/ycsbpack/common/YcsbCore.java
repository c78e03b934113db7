package org.ycsbpack.common;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import site.ycsb.DB;
import site.ycsb.Utils;
import site.ycsb.WorkloadException;
import site.ycsb.generator.AcknowledgedCounterGenerator;
import site.ycsb.generator.DiscreteGenerator;
import site.ycsb.generator.NumberGenerator;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/**
 * What this pack's workloads use of YCSB core, in one place, working on every core from 0.17.0 to
 * master (0.18.0-SNAPSHOT). The members whose signatures differ between those cores are not linked
 * directly (that fails as a {@code NoSuchMethodError} in every client thread, which YCSB reports as
 * a run of 0 operations): master made {@code CoreWorkload.buildKeyName(long)} a static
 * {@code buildKeyName(long, int, boolean)}, and renamed 0.17.0's misspelt
 * {@code Measurements.getIntendedtartTimeNs()} to {@code getIntendedStartTimeNs()}.
 */
public final class YcsbCore {
  private static final MethodHandle INTENDED_START = intendedStartGetter();

  private YcsbCore() {
  }

  /** CoreWorkload's key for record {@code keynum} (the same in 0.17.0 and master). */
  public static String keyName(long keynum, int zeropadding, boolean orderedinserts) {
    String value = Long.toString(orderedinserts ? keynum : Utils.hash(keynum));
    StringBuilder key = new StringBuilder(4 + Math.max(zeropadding, value.length())).append("user");
    for (int i = value.length(); i < zeropadding; i++) {
      key.append('0');
    }
    return key.append(value).toString();
  }

  /** The intended start of the current operation under {@code -target}, 0 when there is none. */
  public static long intendedStartTimeNs(Measurements m) {
    try {
      return (long) INTENDED_START.invokeExact(m);
    } catch (Throwable e) {
      throw new IllegalStateException("YCSB core's intended start time getter failed", e);
    }
  }

  private static MethodHandle intendedStartGetter() {
    MethodHandles.Lookup lookup = MethodHandles.publicLookup();
    for (String name : new String[] {"getIntendedStartTimeNs", "getIntendedtartTimeNs"}) {
      try {
        return lookup.findVirtual(Measurements.class, name, MethodType.methodType(long.class));
      } catch (NoSuchMethodException | IllegalAccessException e) {
        // try the other spelling
      }
    }
    return null;
  }

  /** The version in core's own project.properties (next to CoreWorkload), or "unknown". */
  public static String version() {
    URL own = CoreWorkload.class.getResource("CoreWorkload.class");
    if (own == null) {
      return "unknown";
    }
    String url = own.toString();
    String path = "site/ycsb/workloads/CoreWorkload.class";
    String base = url.substring(0, url.length() - path.length());
    try (InputStream in = new URL(base + "project.properties").openStream()) {
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }

  /**
   * Fails a workload's {@code init()} with one sentence when this core lacks what the workload
   * uses, instead of every client thread dying later.
   *
   * @param workload the workload's name for the message
   * @param usesCoreWorkload whether it extends CoreWorkload and uses its protected members
   */
  public static void check(String workload, boolean usesCoreWorkload) throws WorkloadException {
    List<String> missing = new ArrayList<>();
    if (INTENDED_START == null) {
      missing.add("Measurements.getIntendedStartTimeNs()");
    }
    if (usesCoreWorkload) {
      missing.addAll(missingCoreWorkloadMembers(CoreWorkload.class));
    }
    if (!missing.isEmpty()) {
      throw new WorkloadException(workload + " cannot run on YCSB core " + version() + ": it lacks "
          + String.join(", ", missing) + "; run it with a YCSB core from 0.17.0 to 0.18.0 "
          + "(master), e.g. this pack's own bin/ycsb");
    }
  }

  /** The protected CoreWorkload members BatchedWorkload uses that {@code type} lacks. */
  static List<String> missingCoreWorkloadMembers(Class<?> type) {
    Object[][] fields = {
        {"table", String.class}, {"fieldcount", long.class}, {"recordcount", long.class},
        {"zeropadding", int.class}, {"orderedinserts", boolean.class},
        {"readallfields", boolean.class}, {"writeallfields", boolean.class},
        {"fieldlengthgenerator", NumberGenerator.class}, {"fieldchooser", NumberGenerator.class},
        {"keysequence", NumberGenerator.class}, {"keychooser", NumberGenerator.class},
        {"operationchooser", DiscreteGenerator.class},
        {"transactioninsertkeysequence", AcknowledgedCounterGenerator.class}};
    List<String> missing = new ArrayList<>();
    for (Object[] f : fields) {
      try {
        Field field = type.getDeclaredField((String) f[0]);
        if (field.getType() != f[1] || Modifier.isPrivate(field.getModifiers())) {
          missing.add("CoreWorkload." + f[0]);
        }
      } catch (NoSuchFieldException e) {
        missing.add("CoreWorkload." + f[0]);
      }
    }
    String[] transactions = {"doTransactionRead", "doTransactionUpdate", "doTransactionInsert",
        "doTransactionScan", "doTransactionReadModifyWrite"};
    for (String name : transactions) {
      requireMethod(type, name, missing, DB.class);
    }
    requireMethod(type, "createOperationGenerator", missing, Properties.class);
    return missing;
  }

  private static void requireMethod(Class<?> type, String name, List<String> missing,
                                    Class<?>... parameters) {
    try {
      Method m = type.getDeclaredMethod(name, parameters);
      if (Modifier.isPrivate(m.getModifiers())) {
        missing.add("CoreWorkload." + name + "()");
      }
    } catch (NoSuchMethodException e) {
      missing.add("CoreWorkload." + name + "()");
    }
  }
}
