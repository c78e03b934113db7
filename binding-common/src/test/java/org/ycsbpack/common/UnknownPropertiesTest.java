package org.ycsbpack.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

class UnknownPropertiesTest {
  private static final List<String> KNOWN = Arrays.asList("hosts", "port", "table",
      "cassandra.readconsistencylevel", "cassandra.password", "fieldcount");

  private static Properties props(String... kv) {
    Properties p = new Properties();
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return p;
  }

  @Test
  void aMisspeltPrefixedPropertyIsNamedWithTheClosestKnownName() {
    assertEquals(Collections.singletonList("property cassandra.readconsistencylvl is not a "
        + "property of cassandra4 (did you mean cassandra.readconsistencylevel?); it is ignored"),
        UnknownProperties.find("cassandra4", props("cassandra.readconsistencylvl", "ONE"),
            KNOWN, "cassandra."));
  }

  @Test
  void anUnprefixedNearMissIsNamedButYcsbsOwnPropertiesAreNot() {
    List<String> found = UnknownProperties.find("cassandra4", props("host", "10.0.0.1",
        "recordcount", "5", "operationcount", "5", "readproportion", "1", "batchsize", "10",
        "readconsistencylevel", "ONE", "somethingelse", "x"), KNOWN, "cassandra.");
    assertEquals(Arrays.asList("property host is not a property of cassandra4 nor of YCSB "
        + "(did you mean hosts?); it is ignored", "property readconsistencylevel is not a "
        + "property of cassandra4 nor of YCSB (did you mean cassandra.readconsistencylevel?); "
        + "it is ignored"), found);
  }

  @Test
  void everyPropertyOfTheBundledWorkloadFilesIsKnownSomewhere() throws IOException {
    Path workloads = Paths.get("..", "workloads");
    List<String> prefixed = Arrays.asList("cassandra.", "hbase.", "jdbc.", "db.");
    try (Stream<Path> files = Files.walk(workloads)) {
      for (Path f : files.filter(x -> x.toString().endsWith(".properties"))
          .collect(Collectors.toList())) {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(f)) {
          p.load(in);
        }
        for (String name : p.stringPropertyNames()) {
          boolean ours = prefixed.stream().anyMatch(name::startsWith)
              || Arrays.asList("hosts", "columnfamily").contains(name);
          assertTrue(ours || UnknownProperties.sharedNames().contains(name),
              f + ": " + name + " is neither YCSB's nor a workload's nor a binding's property");
        }
      }
    }
  }

  @Test
  void anEmptyAddressIsRefusedRatherThanDefaulted() {
    BindingProperty hosts = BindingProperty.of("hosts", "127.0.0.1", "contact points");
    DBException e = assertThrows(DBException.class,
        () -> new PropertyValues(props("hosts", " ")).requireNotBlank(hosts, "10.0.0.1"));
    assertEquals("property hosts is set but empty: give a value (e.g. -p hosts=10.0.0.1) or "
        + "leave it out for the default (127.0.0.1)", e.getMessage());
  }

  @Test
  void aTypoOfYcsbsOwnPropertyIsNamedButBindingPropertiesAreNot() {
    assertEquals(Collections.singletonList("property readproprotion is not one of YCSB's (did "
        + "you mean readproportion?); it is ignored unless the binding reads it"),
        UnknownProperties.coreNearMisses(props("readproprotion", "0.5", "readproportion", "0.5",
            "hosts", "a", "port", "1", "columnfamily", "cf", "cassandra.keyspace", "k",
            "hbase.salt", "none", "listappend.ttl", "5", "batchsize", "10")));
  }
}
