package org.ycsbpack.cassandra4;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.batch.BatchResult;
import org.ycsbpack.common.listappend.ListOperations;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The anti-fraud history of scenario S1 on Cassandra, with the report's own schema and CQL:
 * {@code (custom_id text, type text, datas list<text>, PRIMARY KEY (custom_id, type))},
 * {@code UPDATE ... USING TTL ? SET datas = datas + ? WHERE custom_id = ? AND type = ?}.
 * Batched appends and reads follow {@code cassandra.batchwrite} and {@code cassandra.batchread}.
 */
final class CassandraLists implements ListOperations {
  private static final Object SCHEMA_LOCK = new Object();
  private final CassandraConnection connection;
  private final CassandraSettings settings;
  private final ErrorLog errors;

  CassandraLists(CassandraConnection connection, CassandraSettings settings, ErrorLog errors) {
    this.connection = connection;
    this.settings = settings;
    this.errors = errors;
  }

  /** The three statements of one list table, prepared on its first use by this client. */
  private static final class ListStatements {
    final PreparedStatement append;
    final PreparedStatement read;
    final PreparedStatement readIn;

    ListStatements(CqlStatements statements, String table) {
      append = statements.prepare("LA" + table, "UPDATE " + table + " USING TTL ? SET datas = "
          + "datas + ? WHERE custom_id = ? AND type = ?");
      read = statements.prepare("LR" + table, "SELECT datas FROM " + table
          + " WHERE custom_id = ? AND type = ?");
      readIn = statements.prepare("LIN" + table, "SELECT custom_id, datas FROM " + table
          + " WHERE custom_id IN ? AND type = ?");
    }
  }

  // one client thread's: no operation builds CQL text or looks up a shared cache
  private final Map<String, ListStatements> byTable = new HashMap<>();

  private ListStatements statements(String table) {
    return byTable.computeIfAbsent(table,
        t -> new ListStatements(connection.statements, qualified(t)));
  }

  private String qualified(String table) {
    return settings.keyspace + "." + table;
  }

  @Override
  public String prepareListTable(String table) {
    synchronized (SCHEMA_LOCK) {
      if (connection.listTablesReady.contains(table)) {
        return null;
      }
      boolean exists = connection.session.getMetadata().getKeyspace(settings.keyspace)
          .flatMap(k -> k.getTable(table)).isPresent();
      if (!exists && !settings.createSchema) {
        return "table '" + qualified(table) + "' does not exist: create it (custom_id text, "
            + "type text, datas list<text>, PRIMARY KEY (custom_id, type)), or run with "
            + "-p cassandra.createschema=true";
      }
      try {
        if (!exists) {
          SchemaCreator.execute(connection.session, "CREATE TABLE IF NOT EXISTS "
              + qualified(table) + " (custom_id text, type text, datas list<text>, "
              + "PRIMARY KEY (custom_id, type)) WITH " + settings.tableOptions.cql());
        }
        // another client process may have created it a moment ago: every node must have it
        SchemaWait.tableOnEveryNode(connection.session, settings.keyspace, table);
      } catch (DBException e) {
        return e.getMessage();
      }
      connection.listTablesReady.add(table);
      return null;
    }
  }

  private BoundStatement appendStatement(String table, String key, String type, String element,
                                         int ttl) {
    return statements(table).append.bind(ttl, Collections.singletonList(element), key, type)
        .setConsistencyLevel(settings.writeCl);
  }

  private BoundStatement readStatement(String table, String key, String type) {
    return statements(table).read.bind(key, type)
        .setConsistencyLevel(settings.readCl);
  }

  @Override
  public Status append(String table, String key, String type, String element, int ttlSeconds) {
    try {
      connection.session.execute(appendStatement(table, key, type, element, ttlSeconds));
      return Status.OK;
    } catch (RuntimeException e) {
      return errors.failed(DriverErrors.statusOf(e), "APPEND", key, e);
    }
  }

  @Override
  public Status readList(String table, String key, String type, List<String> out) {
    try {
      Row row = connection.session.execute(readStatement(table, key, type)).one();
      List<String> datas = row == null ? null : row.getList(0, String.class);
      if (datas == null || datas.isEmpty()) {
        return Status.NOT_FOUND;
      }
      out.addAll(datas);
      return Status.OK;
    } catch (RuntimeException e) {
      return errors.failed(DriverErrors.statusOf(e), "READ_LIST", key, e);
    }
  }

  @Override
  public BatchResult batchAppend(String table, List<String> keys, String type,
                                 List<String> elements, int ttlSeconds) {
    List<BoundStatement> appends = new ArrayList<>(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      appends.add(appendStatement(table, keys.get(i), type, elements.get(i), ttlSeconds));
    }
    return BatchWrites.execute(connection.session, settings.batchWrite, settings.writeCl,
        appends, keys, "BATCH_APPEND", errors);
  }

  @Override
  public BatchResult batchReadList(String table, List<String> keys, String type,
                                   Map<String, List<String>> out) {
    if (settings.batchRead == BatchReadMode.ASYNC) {
      List<BoundStatement> reads = new ArrayList<>(keys.size());
      for (String key : keys) {
        reads.add(readStatement(table, key, type));
      }
      return ConcurrentRequests.execute(connection.session, reads, keys, "BATCH_READ_LIST",
          errors, (i, response) -> {
            Row row = response.one();
            List<String> datas = row == null ? null : row.getList(0, String.class);
            if (datas == null || datas.isEmpty()) {
              return false;
            }
            out.put(keys.get(i), datas);
            return true;
          });
    }
    try {
      BoundStatement in = statements(table).readIn.bind(keys, type)
          .setConsistencyLevel(settings.readCl);
      for (Row row : connection.session.execute(in)) {
        List<String> datas = row.getList(1, String.class);
        if (datas != null && !datas.isEmpty()) {
          out.put(row.getString(0), datas);
        }
      }
      return BatchResult.of(out.size(), keys.size() - out.size(), 0, null);
    } catch (RuntimeException e) {
      Status s = errors.failed(DriverErrors.statusOf(e), "BATCH_READ_LIST", keys.get(0) + "...",
          e);
      return BatchResult.allFailed(keys.size(), s);
    }
  }

  @Override
  public long countElements(String table, String type) {
    long n = 0;
    SimpleStatement all = SimpleStatement.newInstance("SELECT type, datas FROM "
        + qualified(table)).setPageSize(1000).setConsistencyLevel(settings.readCl)
        .setTimeout(Duration.ofSeconds(60));
    for (Row row : connection.session.execute(all)) {
      if (type.equals(row.getString(0))) {
        List<String> datas = row.getList(1, String.class);
        n += datas == null ? 0 : datas.size();
      }
    }
    return n;
  }
}
