package org.ycsbpack.jdbc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.ycsbpack.common.testing.BindingContract;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;

/** The YCSB operations contract of every binding, on the real test MariaDB, in both write modes. */
class BindingContractIT extends BindingContract {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  @Override
  protected DB client(String... properties) throws DBException {
    List<String> kv = new ArrayList<>(Arrays.asList("jdbc.createtable", "true", "fieldcount",
        "3"));
    kv.addAll(Arrays.asList(properties));
    return binding.client(kv.toArray(new String[0]));
  }

  @Override
  protected List<String[]> batchModes() {
    return Arrays.asList(new String[] {"jdbc.batchupdateapi", "false"},
        new String[] {"jdbc.batchupdateapi", "true"});
  }

  @Override
  protected RefusedWrite refusedWrite() {
    return new RefusedWrite(new String[0], "user8001", Collections.singletonMap("field7",
        new ByteArrayByteIterator("x".getBytes())), "UNKNOWN_COLUMN");
  }
}
