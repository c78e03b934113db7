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
 */
final class SchemaCreator {
  private static final Duration DDL_TIMEOUT = Duration.ofSeconds(60);

  private SchemaCreator() {
  }

  static void create(CqlSession session, CassandraSettings s) throws DBException {
    String keyspaceCql = "CREATE KEYSPACE IF NOT EXISTS " + s.keyspace
        + " WITH replication = " + s.replication.cql();
    execute(session, keyspaceCql);
    boolean existed = session.getMetadata().getKeyspace(s.keyspace)
        .flatMap(k -> k.getTable(s.table)).isPresent();
    execute(session, tableCql(s));
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

  private static void execute(CqlSession session, String cql) throws DBException {
    try {
      session.execute(SimpleStatement.newInstance(cql).setTimeout(DDL_TIMEOUT));
    } catch (RuntimeException e) {
      throw new DBException("schema creation failed (" + cql + "): " + ErrorLog.describe(e));
    }
  }
}
