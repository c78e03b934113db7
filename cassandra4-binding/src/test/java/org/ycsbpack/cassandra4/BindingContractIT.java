package org.ycsbpack.cassandra4;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.ycsbpack.common.testing.BindingContract;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;

/**
 * The contract of every binding on the real test node: CRUD with every byte value, batches in
 * every cassandra.batchread / cassandra.batchwrite mode equal to the single operations, and an
 * unknown column as INVALID_QUERY, not a crash, alone or in a batch.
 */
class BindingContractIT extends BindingContract {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  @Override
  protected DB client(String... properties) throws DBException {
    List<String> kv = new ArrayList<>(Arrays.asList("cassandra.keyspace", "it_contract",
        "cassandra.createschema", "true", "fieldcount", "3"));
    kv.addAll(Arrays.asList(properties));
    return binding.client(kv.toArray(new String[0]));
  }

  @Override
  protected List<String[]> batchModes() {
    return Arrays.asList(
        new String[] {"cassandra.batchread", "in", "cassandra.batchwrite", "unlogged"},
        new String[] {"cassandra.batchread", "async", "cassandra.batchwrite", "logged"},
        new String[] {"cassandra.batchread", "in", "cassandra.batchwrite", "async"});
  }

  @Override
  protected RefusedWrite refusedWrite() {
    return new RefusedWrite(new String[0], "user8001", Collections.singletonMap("field7",
        new ByteArrayByteIterator("x".getBytes())), "INVALID_QUERY");
  }
}
