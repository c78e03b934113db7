package org.ycsbpack.common.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArgumentChecksTest {
  private static final ClassLoader LOADER = ArgumentChecksTest.class.getClassLoader();

  private static Properties props(String... kv) {
    Properties p = new Properties();
    p.setProperty("workload", ArgumentChecks.CORE_WORKLOAD);
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return p;
  }

  @Test
  void everyDashLittlePBeatsEveryWorkloadFileAsInYcsb(@TempDir File dir) throws Exception {
    File a = new File(dir, "a.properties");
    File b = new File(dir, "b.properties");
    Files.write(a.toPath(), "recordcount=1\noperationcount=1\n".getBytes(StandardCharsets.UTF_8));
    Files.write(b.toPath(), "recordcount=2\n".getBytes(StandardCharsets.UTF_8));
    Properties p = ArgumentChecks.merged(new String[] {"-p", "operationcount=9", "-P",
        a.getPath(), "-P", b.getPath(), "-threads", "2"});
    assertEquals("2", p.getProperty("recordcount"));
    assertEquals("9", p.getProperty("operationcount"));
  }

  @Test
  void aGoodLoadAndRunPass() {
    assertNull(ArgumentChecks.problem(props("recordcount", "10"), true, LOADER));
    assertNull(ArgumentChecks.problem(props("operationcount", "10", "readproportion", "0.95"),
        false, LOADER));
  }

  @Test
  void insertcountDecidesALoadWhenGiven() {
    assertEquals("property insertcount='0': a load needs the number of records to insert, 1 or "
        + "more (e.g. -p insertcount=1000)", ArgumentChecks.problem(props("recordcount", "10",
        "insertcount", "0"), true, LOADER));
  }

  @Test
  void aNumberYcsbCannotParseIsNamedWithWhatItMeans() {
    assertEquals("property fieldlength='1k' is not valid: expected a whole number of 1 or more "
        + "(bytes per field)", ArgumentChecks.problem(props("operationcount", "5",
        "fieldlength", "1k"), false, LOADER));
  }

  @Test
  void anExporterThatIsNoExporterIsNamed() {
    assertEquals("property exporter='java.lang.String' is not a "
        + "site.ycsb.measurements.exporter.MeasurementsExporter (e.g. "
        + "site.ycsb.measurements.exporter.TextMeasurementsExporter or "
        + "JSONArrayMeasurementsExporter)", ArgumentChecks.problem(props("operationcount", "5",
        "exporter", "java.lang.String"), false, LOADER));
  }
}
