package org.ycsbpack.hbase;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;
import org.ycsbpack.common.probe.Machine;

/**
 * The probe's metrics in the answers of an HBase info server's {@code /jmx} servlet (HBase
 * 2.6's names): the region server's flush and compaction counters, the JVM's GC time, the
 * process CPU, and the cores and memory of the machine.
 */
final class JmxServletMetrics {
  static final String SERVER_BEAN = "Hadoop:service=HBase,name=RegionServer,sub=Server";
  static final String JVM_BEAN = "Hadoop:service=HBase,name=JvmMetrics";
  static final String OS_BEAN = Machine.OS_BEAN;
  static final String RUNTIME_BEAN = "java.lang:type=Runtime";
  /** Probe metric -> attribute of the region server's Server bean. */
  private static final String[][] SERVER_METRICS = {
      {"flushes_total", "FlushTime_num_ops"},
      {"flushed_bytes_total", "flushedOutputBytes"},
      {"compactions_total", "CompactionTime_num_ops"},
      {"compacted_bytes_total", "compactedInputBytes"},
      {"pending_compactions", "compactionQueueLength"}};

  private JmxServletMetrics() {
  }

  /** The region server metrics of a {@code /jmx?qry=}{@link #SERVER_BEAN} answer. */
  static Map<String, Double> regionServer(String json) {
    JsonObject bean = bean(json, SERVER_BEAN);
    Map<String, Double> out = new LinkedHashMap<>();
    for (String[] m : SERVER_METRICS) {
      out.put(m[0], number(bean, m[1]));
    }
    return out;
  }

  /** gc_pause_ms_total of a {@link #JVM_BEAN} answer. */
  static double gcMillis(String json) {
    return number(bean(json, JVM_BEAN), "GcTimeMillis");
  }

  /** cpu_ms_total of an {@link #OS_BEAN} answer (ProcessCpuTime is in nanoseconds). */
  static double cpuMillis(String json) {
    return number(bean(json, OS_BEAN), "ProcessCpuTime") / 1e6;
  }

  /**
   * The machine's cores and memory of an {@link #OS_BEAN} answer (TotalMemorySize, else
   * TotalPhysicalMemorySize); an IllegalArgumentException when they are not in it.
   */
  static Machine machine(String json) {
    JsonObject bean = bean(json, OS_BEAN);
    Map<String, Object> attributes = new HashMap<>();
    for (String a : Machine.ATTRIBUTES) {
      JsonElement v = bean.get(a);
      if (v != null && v.isJsonPrimitive() && v.getAsJsonPrimitive().isNumber()) {
        attributes.put(a, v.getAsNumber());
      }
    }
    return Machine.of(attributes);
  }

  /** The JVM's "pid@host" of a {@link #RUNTIME_BEAN} answer: two servers in one JVM share it. */
  static String jvmName(String json) {
    JsonElement name = bean(json, RUNTIME_BEAN).get("Name");
    return name == null ? "" : name.getAsString();
  }

  private static JsonObject bean(String json, String name) {
    JsonElement root = JsonParser.parseString(json);
    JsonArray beans = root.isJsonObject() ? root.getAsJsonObject().getAsJsonArray("beans") : null;
    if (beans != null) {
      for (JsonElement b : beans) {
        JsonElement n = b.getAsJsonObject().get("name");
        if (n != null && name.equals(n.getAsString())) {
          return b.getAsJsonObject();
        }
      }
    }
    throw new IllegalArgumentException("the /jmx answer has no bean " + name);
  }

  private static double number(JsonObject bean, String attribute) {
    JsonElement v = bean.get(attribute);
    if (v == null || !v.isJsonPrimitive() || !v.getAsJsonPrimitive().isNumber()) {
      throw new IllegalArgumentException("bean " + bean.get("name").getAsString() + " has no "
          + "number " + attribute);
    }
    return v.getAsDouble();
  }
}
