package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The wait for the table on every node tells a node that does not know the table (it answers
 * INVALID_QUERY) from one that does: only the first is waited for.
 */
class SchemaWaitIT {

  @Test
  void aTableTheNodeDoesNotKnowIsWaitedForAndOneItKnowsIsNot() throws Exception {
    try (CqlSession s = BindingUnderTest.session()) {
      s.execute("CREATE KEYSPACE IF NOT EXISTS it_schema_wait WITH replication = "
          + "{'class': 'SimpleStrategy', 'replication_factor': 1}");
      s.execute("CREATE TABLE IF NOT EXISTS it_schema_wait.created (k text PRIMARY KEY)");
      long start = System.nanoTime();
      assertFalse(SchemaWait.tableOnEveryNode(s, "it_schema_wait", "never_created",
          Duration.ofSeconds(2)));
      assertTrue(System.nanoTime() - start >= Duration.ofSeconds(2).toNanos(),
          "a table no node knows must be waited for until the timeout");
      assertTrue(SchemaWait.tableOnEveryNode(s, "it_schema_wait", "created",
          Duration.ofSeconds(2)));
    }
  }
}
