package org.ycsbpack.cassandra4;

import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.SharedConnections;
import org.ycsbpack.common.UnknownProperties;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB binding for Apache Cassandra on java-driver 4 ({@code bin/ycsb ... cassandra4}).
 *
 * <p>All client threads share one CqlSession (opened by the first init(), closed by the last
 * cleanup()); statements are prepared once and routed token-aware. Rows are encoded by
 * {@link CassandraRows}, byte for byte. Batch operations (for
 * {@link org.ycsbpack.common.batch.BatchedWorkload}) are in {@link CassandraBatches}.
 */
public class Cassandra4Client extends DB {
  /** One connection per distinct cluster/schema setting: in a YCSB run that is exactly one. */
  private static final SharedConnections<CassandraConnection> CONNECTIONS =
      new SharedConnections<>(CassandraProperties.BINDING, "the session", ErrorLog::describe);
  private static final ErrorLog ERRORS = new ErrorLog(CassandraProperties.BINDING);

  private CassandraSettings settings;
  private CassandraConnection connection;
  private SharedConnections.Lease<CassandraConnection> lease;

  @Override
  public void init() throws DBException {
    try {
      settings = new CassandraSettings(getProperties());
      UnknownProperties.warnOnce(CassandraProperties.BINDING, getProperties(),
          CassandraProperties.NAMES, CassandraProperties.PREFIX);
      CassandraSettings s = settings;
      lease = CONNECTIONS.acquire(s.connectionKey(), () -> CassandraConnection.open(s));
      connection = lease.connection();
      lease.publish(new CassandraBatches(connection, settings, ERRORS),
          new CassandraLists(connection, settings, ERRORS));
    } catch (Exception e) {
      connection = null;
      throw CONNECTIONS.initFailed(lease, e);
    }
  }

  @Override
  public void cleanup() throws DBException {
    if (connection != null) {
      connection = null;
      lease.release();
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields,
                     Map<String, ByteIterator> result) {
    try {
      Row row = connection.session.execute(connection.statements.read(fields)
          .boundStatementBuilder(key)
          .setConsistencyLevel(settings.readCl).build()).one();
      if (row == null) {
        return Status.NOT_FOUND;
      }
      CassandraRows.copyFields(row, result);
      return Status.OK;
    } catch (RuntimeException e) {
      return ERRORS.failed(DriverErrors.statusOf(e), "READ", key, e);
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
                     Vector<HashMap<String, ByteIterator>> result) {
    try {
      ResultSet rows = connection.session.execute(connection.statements.scan(fields)
          .boundStatementBuilder(startkey, recordcount)
          .setPageSize(settings.scanPageSize)
          .setConsistencyLevel(settings.scanCl).build());
      for (Row row : rows) {
        HashMap<String, ByteIterator> values = new HashMap<>();
        CassandraRows.copyFields(row, values);
        result.add(values);
      }
      return Status.OK;
    } catch (RuntimeException e) {
      return ERRORS.failed(DriverErrors.statusOf(e), "SCAN", startkey, e);
    }
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    try {
      connection.session.execute(CassandraRows.insert(connection.statements, key, values)
          .setConsistencyLevel(settings.writeCl).build());
      return Status.OK;
    } catch (RuntimeException e) {
      return ERRORS.failed(DriverErrors.statusOf(e), "INSERT", key, e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    try {
      connection.session.execute(CassandraRows.update(connection.statements, key, values)
          .setConsistencyLevel(settings.writeCl).build());
      return Status.OK;
    } catch (RuntimeException e) {
      return ERRORS.failed(DriverErrors.statusOf(e), "UPDATE", key, e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      connection.session.execute(connection.statements.delete().boundStatementBuilder(key)
          .setConsistencyLevel(settings.writeCl).build());
      return Status.OK;
    } catch (RuntimeException e) {
      return ERRORS.failed(DriverErrors.statusOf(e), "DELETE", key, e);
    }
  }

  CassandraConnection connectionForTests() {
    return connection;
  }

  CassandraSettings settingsForTests() {
    return settings;
  }
}
