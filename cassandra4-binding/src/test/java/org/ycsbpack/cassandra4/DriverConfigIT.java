package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
    // a request timeout no real request meets: its effect is visible as CLIENT_TIMEOUT
    Files.write(conf, ("datastax-java-driver {\n  basic.request.timeout = 1 millisecond\n}\n")
        .getBytes(StandardCharsets.UTF_8));
    return conf;
  }

  @Test
  void theDriverFileIsUsed(@TempDir Path dir) throws Exception {
    Cassandra4Client c = binding.client("cassandra.keyspace", "it_driverconf",
        "cassandra.createschema", "true", "cassandra.driverconfig", config(dir).toString());
    Status s = Status.OK;
    for (int i = 0; i < 20 && s.isOk(); i++) {
      s = c.read("usertable", "k" + i, null, new HashMap<>());
      s = Status.NOT_FOUND.equals(s) ? Status.OK : s;
    }
    assertEquals("CLIENT_TIMEOUT", s.getName());
  }

  @Test
  void aBindingPropertyThatIsSetOverridesTheFile(@TempDir Path dir) throws Exception {
    Cassandra4Client c = binding.client("cassandra.keyspace", "it_driverconf",
        "cassandra.createschema", "true", "cassandra.driverconfig", config(dir).toString(),
        "cassandra.requesttimeoutms", "10000");
    assertEquals(Status.NOT_FOUND, c.read("usertable", "absent", null, new HashMap<>()));
  }
}
