package org.ycsbpack.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.ycsbpack.common.probe.Machine;

/** The server probe's reading of an HBase 2.6 info server's /conf and /jmx answers. */
class InfoServerAnswersTest {
  /** Shaped as a real 2.6.4 master's /conf?format=json (entries cut from it). */
  private static final String CONF = "{\"properties\":[{\"key\":\"hbase.hregion.memstore.mslab."
      + "enabled\",\"value\":\"false\",\"isFinal\":false,\"resource\":\"hbase-site.xml\"},"
      + "{\"key\":\"yarn.admin.acl\",\"value\":\"*\",\"isFinal\":false,\"resource\":"
      + "\"yarn-default.xml\"},{\"key\":\"hbase.regionserver.handler.count\",\"value\":\"30\","
      + "\"isFinal\":false,\"resource\":\"hbase-default.xml\"},{\"key\":\"hbase.master.port\","
      + "\"value\":\"16100\",\"isFinal\":false,\"resource\":\"programmatically\"},{\"key\":"
      + "\"fs.defaultFS\",\"value\":\"file:/\",\"isFinal\":false,\"resource\":"
      + "\"file:/tmp/conf/core-site.xml\"}]}";

  @Test
  void theConfFilterKeepsWhatDoesNotComeFromADefaultFile() {
    Map<String, String> expected = new TreeMap<>();
    expected.put("hbase.hregion.memstore.mslab.enabled", "false");
    expected.put("hbase.master.port", "16100");
    expected.put("fs.defaultFS", "file:/");
    assertEquals(expected, ConfSettings.nonDefault(CONF));
    assertEquals("not the ConfServlet's JSON: no \"properties\" list", assertThrows(
        IllegalArgumentException.class, () -> ConfSettings.nonDefault("{\"beans\":[]}"))
        .getMessage());
  }

  @Test
  void theJmxServletAnswersGiveTheProbesMetrics() {
    String server = "{\"beans\":[{\"name\":\"" + JmxServletMetrics.SERVER_BEAN + "\","
        + "\"modelerType\":\"RegionServer,sub=Server\",\"FlushTime_num_ops\":16,"
        + "\"flushedOutputBytes\":31079518,\"flushedMemstoreBytes\":30375960,"
        + "\"CompactionTime_num_ops\":16,\"compactedInputBytes\":31079518,"
        + "\"compactionQueueLength\":0}]}";
    Map<String, Double> expected = new LinkedHashMap<>();
    expected.put("flushes_total", 16.0);
    expected.put("flushed_bytes_total", 31079518.0);
    expected.put("compactions_total", 16.0);
    expected.put("compacted_bytes_total", 31079518.0);
    expected.put("pending_compactions", 0.0);
    assertEquals(expected, JmxServletMetrics.regionServer(server));
    assertEquals(537.0, JmxServletMetrics.gcMillis("{\"beans\":[{\"name\":\""
        + JmxServletMetrics.JVM_BEAN + "\",\"GcTimeMillis\":537}]}"));
    assertEquals(54440.0, JmxServletMetrics.cpuMillis("{\"beans\":[{\"name\":\""
        + JmxServletMetrics.OS_BEAN + "\",\"ProcessCpuTime\":54440000000}]}"));
    // the OperatingSystem bean as HBase 2.6.4's /jmx serves it on JDK 17 (attributes cut)
    Machine machine = JmxServletMetrics.machine("{\"beans\":[{\"name\":\""
        + JmxServletMetrics.OS_BEAN + "\",\"modelerType\":\"com.sun.management.internal."
        + "OperatingSystemImpl\",\"TotalMemorySize\":25165824000,\"TotalPhysicalMemorySize\":"
        + "25165824000,\"ProcessCpuTime\":54440000000,\"AvailableProcessors\":2}]}");
    assertEquals(2, machine.cores);
    assertEquals(25165824000L, machine.memoryBytes);
    assertEquals(8589934592L, JmxServletMetrics.machine("{\"beans\":[{\"name\":\""
        + JmxServletMetrics.OS_BEAN + "\",\"TotalPhysicalMemorySize\":8589934592,"
        + "\"AvailableProcessors\":4}]}").memoryBytes);
    assertEquals("java.lang:type=OperatingSystem has no positive AvailableProcessors (null)",
        assertThrows(IllegalArgumentException.class, () -> JmxServletMetrics.machine(
            "{\"beans\":[{\"name\":\"" + JmxServletMetrics.OS_BEAN + "\",\"AvailableProcessors"
            + "\":\"two\",\"TotalMemorySize\":1024}]}")).getMessage());
    assertEquals("22146@vm", JmxServletMetrics.jvmName("{\"beans\":[{\"name\":\""
        + JmxServletMetrics.RUNTIME_BEAN + "\",\"Name\":\"22146@vm\"}]}"));
    assertEquals("bean " + JmxServletMetrics.SERVER_BEAN + " has no number FlushTime_num_ops",
        assertThrows(IllegalArgumentException.class, () -> JmxServletMetrics.regionServer(
            "{\"beans\":[{\"name\":\"" + JmxServletMetrics.SERVER_BEAN + "\"}]}")).getMessage());
    assertEquals("the /jmx answer has no bean " + JmxServletMetrics.JVM_BEAN, assertThrows(
        IllegalArgumentException.class, () -> JmxServletMetrics.gcMillis("{\"beans\":[]}"))
        .getMessage());
  }
}
