package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.DBException;
import site.ycsb.Status;

/** cassandra.driverconfig is applied, and a binding property that is set overrides it. */
class DriverConfigIT {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  private static Path config(Path dir) throws Exception {
    Path conf = dir.resolve("application.conf");
    // a request timeout no real request meets
    Files.write(conf, ("datastax-java-driver {\n  basic.request.timeout = 1 millisecond\n}\n")
        .getBytes(StandardCharsets.UTF_8));
    return conf;
  }

  @Test
  void theDriverFileIsUsed(@TempDir Path dir) throws Exception {
    // a setting no binding property touches, with an effect init() reports
    Path conf = dir.resolve("keyspace.conf");
    Files.write(conf, ("datastax-java-driver.basic.session-keyspace = it_no_such_keyspace\n")
        .getBytes(StandardCharsets.UTF_8));
    DBException e = assertThrows(DBException.class, () -> binding.client(
        "cassandra.driverconfig", conf.toString()));
    assertTrue(e.getMessage().contains("it_no_such_keyspace"), e.getMessage());
  }

  @Test
  void aBindingPropertyThatIsSetOverridesTheFile(@TempDir Path dir) throws Exception {
    // with the file's 1 ms request timeout every request would fail; the property wins
    Cassandra4Client c = binding.client("cassandra.keyspace", "it_driverconf",
        "cassandra.createschema", "true", "cassandra.driverconfig", config(dir).toString(),
        "cassandra.requesttimeoutms", "10000");
    assertEquals(Status.NOT_FOUND, c.read("usertable", "absent", null, new HashMap<>()));
  }
}
