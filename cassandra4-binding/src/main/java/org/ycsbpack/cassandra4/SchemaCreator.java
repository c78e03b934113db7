package org.ycsbpack.cassandra4;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import java.time.Duration;
import org.ycsbpack.common.Deadline;
import org.ycsbpack.common.ErrorLog;
import site.ycsb.DBException;

/**
 * Creates the keyspace and the YCSB table ({@code y_id text PRIMARY KEY, field0..fieldN text})
 * if they do not exist, and waits until every live node has them ({@link SchemaWait}). An
 * existing table keeps its options: say so, because a benchmark of a table variant on an old
 * table would measure the wrong thing.
 */
final class SchemaCreator {
  private static final Duration DDL_TIMEOUT = Duration.ofSeconds(60);

  private SchemaCreator() {
  }

  static void create(CqlSession session, CassandraSettings s) throws DBException {
    execute(session, "CREATE KEYSPACE IF NOT EXISTS " + s.keyspace
        + " WITH replication = " + s.replication.cql());
    boolean existed = session.getMetadata().getKeyspace(s.keyspace)
        .flatMap(k -> k.getTable(s.table)).isPresent();
    execute(session, tableCql(s));
    SchemaWait.tableOnEveryNode(session, s.keyspace, s.table);
    if (existed) {
      System.err.println("INFO cassandra4: table " + s.keyspace + "." + s.table + " already "
          + "exists; cassandra.compaction, cassandra.caching and cassandra.sstablecompression "
          + "were not applied to it");
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

  /**
   * Runs one schema statement. A coordinator that has not applied the keyspace another client
   * created a moment ago refuses a table statement in it ("keyspace ... does not exist"): that
   * one is tried again for up to {@link SchemaWait#TIMEOUT}.
   */
  static void execute(CqlSession session, String cql) throws DBException {
    Deadline deadline = Deadline.after(SchemaWait.TIMEOUT);
    while (true) {
      try {
        session.execute(SimpleStatement.newInstance(cql).setTimeout(DDL_TIMEOUT));
        return;
      } catch (InvalidQueryException e) {
        if (!keyspaceMissing(e) || deadline.passed()) {
          throw failed(cql, e);
        }
        SchemaWait.pause();
      } catch (RuntimeException e) {
        throw failed(cql, e);
      }
    }
  }

  static boolean keyspaceMissing(InvalidQueryException e) {
    String m = String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT);
    return m.contains("keyspace") && (m.contains("does not exist") || m.contains("doesn't exist"));
  }

  private static DBException failed(String cql, RuntimeException e) {
    return new DBException("schema creation failed (" + cql + "): " + ErrorLog.describe(e));
  }
}
