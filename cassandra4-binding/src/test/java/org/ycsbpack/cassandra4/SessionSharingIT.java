package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

/**
 * One CqlSession per JVM for clients that agree on every session property, on the real test
 * node: per-client settings (consistency levels, batch modes) do not split it, a keyspace does,
 * and the last cleanup() closes it.
 */
class SessionSharingIT {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  @Test
  void clientsThatDifferOnlyInPerClientSettingsShareOneSessionUntilTheLastCleanup()
      throws DBException {
    Cassandra4Client a = binding.client("cassandra.keyspace", "it_share",
        "cassandra.createschema", "true", "cassandra.readconsistencylevel", "ONE");
    Cassandra4Client b = binding.client("cassandra.keyspace", "it_share",
        "cassandra.createschema", "true", "cassandra.readconsistencylevel", "ALL",
        "cassandra.batchwrite", "async", "cassandra.scanpagesize", "10");
    CassandraConnection shared = a.connectionForTests();
    assertSame(shared, b.connectionForTests());
    a.cleanup();
    assertFalse(shared.session.isClosed(), "b still uses it");
    b.cleanup();
    assertTrue(shared.session.isClosed(), "closed by the last cleanup()");
  }

  @Test
  void aClientOfAnotherKeyspaceHasASessionOfItsOwn() throws DBException {
    Cassandra4Client a = binding.client("cassandra.keyspace", "it_share",
        "cassandra.createschema", "true");
    Cassandra4Client c = binding.client("cassandra.keyspace", "it_share_other",
        "cassandra.createschema", "true");
    assertNotSame(a.connectionForTests(), c.connectionForTests());
  }
}
