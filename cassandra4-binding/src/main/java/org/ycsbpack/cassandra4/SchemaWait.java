package org.ycsbpack.cassandra4;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.ycsbpack.common.Deadline;
import site.ycsb.DBException;

/**
 * Waits, after the schema statements, until the schema has reached the nodes the benchmark will
 * send requests to.
 *
 * <p>Several client processes start at once and each sends CREATE ... IF NOT EXISTS, perhaps to
 * different coordinators. A statement that changed nothing on its coordinator returns no schema
 * change, so the driver does not wait for the other nodes, and the first writes routed to a node
 * that has not applied the table yet fail ("table usertable does not exist", INVALID_QUERY).
 * Schema agreement is not proof either: the driver compares the versions the control node has
 * heard of through gossip, which can all still be the old one while one node already has the new
 * (CI saw both failures). So each live node is asked, as coordinator, to read the table: no
 * separate wait for agreement (the driver already waits for it after a statement that changed
 * the schema, and the probe is what proves the table is there).
 */
final class SchemaWait {
  static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);

  private SchemaWait() {
  }

  /**
   * Blocks until every live node, asked as coordinator, can read {@code keyspace.table}, or warns
   * after {@link #TIMEOUT} naming the nodes that still cannot: the run then goes on and what
   * fails is counted under its status.
   */
  static void tableOnEveryNode(CqlSession session, String keyspace, String table)
      throws DBException {
    tableOnEveryNode(session, keyspace, table, TIMEOUT);
  }

  /** As {@link #tableOnEveryNode(CqlSession, String, String)}: whether every node has it. */
  static boolean tableOnEveryNode(CqlSession session, String keyspace, String table,
                                  Duration timeout) throws DBException {
    String cql = "SELECT * FROM " + keyspace + "." + table + " LIMIT 1";
    Deadline deadline = Deadline.after(timeout);
    Set<Node> ready = new HashSet<>();
    while (true) {
      List<String> waiting = new ArrayList<>();
      for (Node node : session.getMetadata().getNodes().values()) {
        if (node.getState() != NodeState.UP || ready.contains(node)) {
          continue;
        }
        try {
          session.execute(SimpleStatement.newInstance(cql).setNode(node)
              .setConsistencyLevel(DefaultConsistencyLevel.ONE).setTimeout(PROBE_TIMEOUT));
          ready.add(node);
        } catch (InvalidQueryException e) {   // the node has not applied the table yet
          waiting.add(node.getEndPoint().toString());
        } catch (RuntimeException e) {
          // it got past the query's check of the schema: any other failure is not about it
          ready.add(node);
        }
      }
      if (waiting.isEmpty()) {
        return true;
      }
      if (deadline.passed()) {
        System.err.println("WARN cassandra4: table " + keyspace + "." + table + " is still "
            + "unknown to " + waiting + " " + timeout.getSeconds() + " s after it was created; "
            + "requests they coordinate fail with INVALID_QUERY until they have it "
            + "(nodetool describecluster shows the schema versions)");
        return false;
      }
      pause();
    }
  }

  static void pause() throws DBException {
    Deadline.pause(POLL, "the schema to reach every node");
  }
}
