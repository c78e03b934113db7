package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.testing.ListOperationsContract;
import site.ycsb.DBException;

/**
 * The S1 anti-fraud history on the real test node: the list-append contract of every binding
 * (order, TTL, batched reads in every mode) and nothing lost in a real run.
 */
class ListAppendIT extends ListOperationsContract {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  @Override
  protected String bindingName() {
    return "cassandra4";
  }

  @Override
  protected String[] runConnection() {
    return new String[] {"-p", "hosts=" + LocalCassandra.hosts(),
        "-p", "cassandra.keyspace=it_lists_run", "-p", "cassandra.createschema=true"};
  }

  @Override
  protected List<String[]> batchModes() {
    return Arrays.asList(
        new String[] {"cassandra.batchread", "in", "cassandra.batchwrite", "unlogged"},
        new String[] {"cassandra.batchread", "async", "cassandra.batchwrite", "logged"},
        new String[] {"cassandra.batchread", "in", "cassandra.batchwrite", "async"});
  }

  @Override
  protected CassandraLists lists(String... more) throws DBException {
    List<String> kv = new ArrayList<>(Arrays.asList("cassandra.keyspace", "it_lists",
        "cassandra.createschema", "true"));
    kv.addAll(Arrays.asList(more));
    Cassandra4Client c = binding.client(kv.toArray(new String[0]));
    CassandraLists lists = new CassandraLists(c.connectionForTests(), c.settingsForTests(),
        new ErrorLog("cassandra4-test"));
    assertNull(lists.prepareListTable("history"));
    return lists;
  }
}
