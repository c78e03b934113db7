package org.ycsbpack.cassandra4;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.time.Duration;
import org.ycsbpack.common.ErrorLog;
import site.ycsb.DBException;

/**
 * Creates the keyspace and the YCSB table ({@code y_id text PRIMARY KEY, field0..fieldN text})
 * if they do not exist. An existing table keeps its options: say so, because a benchmark of a
 * table variant on an old table would measure the wrong thing.
 *
 * <p>Several client processes start at once: each sends CREATE ... IF NOT EXISTS, perhaps to
 * different coordinators. A statement that changed nothing on its coordinator returns no schema
 * change, so the driver does not wait for the other nodes; they may not have the table yet and
 * the first writes routed to them would fail with "unconfigured table". Hence the explicit wait
 * for every live node to report the same schema version before the benchmark starts.
 */
final class SchemaCreator {
  private static final Duration DDL_TIMEOUT = Duration.ofSeconds(60);
  static final Duration AGREEMENT_TIMEOUT = Duration.ofSeconds(30);
  private static final long AGREEMENT_POLL_MS = 200;

  private SchemaCreator() {
  }

  static void create(CqlSession session, CassandraSettings s) throws DBException {
    String keyspaceCql = "CREATE KEYSPACE IF NOT EXISTS " + s.keyspace
        + " WITH replication = " + s.replication.cql();
    execute(session, keyspaceCql);
    boolean existed = session.getMetadata().getKeyspace(s.keyspace)
        .flatMap(k -> k.getTable(s.table)).isPresent();
    execute(session, tableCql(s));
    awaitAgreement(session);
    if (existed) {
      System.err.println("INFO cassandra4: table " + s.keyspace + "." + s.table + " already "
          + "exists; cassandra.compaction, cassandra.caching and cassandra.sstablecompression "
          + "were not applied to it");
    }
  }

  /**
   * Blocks until the live nodes agree on the schema version, or warns after
   * {@link #AGREEMENT_TIMEOUT}: the benchmark then starts, and any operation the disagreement
   * fails is counted under its status (INVALID_QUERY for "unconfigured table").
   */
  static void awaitAgreement(CqlSession session) throws DBException {
    long deadline = System.nanoTime() + AGREEMENT_TIMEOUT.toNanos();
    try {
      while (!session.checkSchemaAgreement()) {
        if (System.nanoTime() > deadline) {
          System.err.println("WARN cassandra4: the nodes did not agree on the schema within "
              + AGREEMENT_TIMEOUT.getSeconds() + " s after it was created; operations may fail "
              + "with INVALID_QUERY until they do (nodetool describecluster shows the versions)");
          return;
        }
        Thread.sleep(AGREEMENT_POLL_MS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DBException("interrupted while waiting for schema agreement");
    } catch (RuntimeException e) {
      throw new DBException("checking schema agreement failed: " + ErrorLog.describe(e));
    }
  }

  static String tableCql(CassandraSettings s) {
    StringBuilder cql = new StringBuilder("CREATE TABLE IF NOT EXISTS ")
        .append(s.keyspace).append('.').append(s.table).append(" (")
        .append(CqlStatements.KEY).append(" text PRIMARY KEY");
    for (int i = 0; i < s.fieldCount; i++) {
      cql.append(", ").append(CqlStatements.quote(s.fieldPrefix + i)).append(" text");
    }
    return cql.append(") WITH ").append(s.tableOptions.cql()).toString();
  }

  private static void execute(CqlSession session, String cql) throws DBException {
    try {
      session.execute(SimpleStatement.newInstance(cql).setTimeout(DDL_TIMEOUT));
    } catch (RuntimeException e) {
      throw new DBException("schema creation failed (" + cql + "): " + ErrorLog.describe(e));
    }
  }
}
