package org.ycsbpack.hbase;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.ycsbpack.common.testing.BindingContract;
import site.ycsb.DB;
import site.ycsb.DBException;

/**
 * The contract of every binding on the real test HBase: CRUD with every byte value in every salt
 * mode and key encoding (a table each), batches with and without a BufferedMutator and with
 * client buffering equal to the single operations, and a key without a number under
 * {@code hbase.keyencoding=long} as BAD_REQUEST, alone or in a batch.
 */
class BindingContractIT extends BindingContract {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  /** A table per salt and key encoding: their row keys differ for the same YCSB key. */
  @Override
  protected DB client(String... properties) throws DBException {
    String salt = "crc32";
    String encoding = "string";
    for (int i = 0; i < properties.length; i += 2) {
      salt = properties[i].equals("hbase.salt") ? properties[i + 1] : salt;
      encoding = properties[i].equals("hbase.keyencoding") ? properties[i + 1] : encoding;
    }
    List<String> kv = new ArrayList<>(Arrays.asList(
        "table", "it_contract_" + salt.replace(':', '_') + "_" + encoding,
        "hbase.createtable", "true", "hbase.presplit", salt.equals("none") ? "1" : "4"));
    kv.addAll(Arrays.asList(properties));
    return binding.client(kv.toArray(new String[0]));
  }

  @Override
  protected List<String[]> layouts() {
    return Arrays.asList(new String[] {"hbase.salt", "crc32", "hbase.keyencoding", "string"},
        new String[] {"hbase.salt", "crc32", "hbase.keyencoding", "long"},
        new String[] {"hbase.salt", "buckets:16", "hbase.keyencoding", "string"},
        new String[] {"hbase.salt", "none", "hbase.keyencoding", "long"});
  }

  @Override
  protected List<String[]> batchModes() {
    return Arrays.asList(new String[] {"hbase.batchwrite", "batch"},
        new String[] {"hbase.batchwrite", "mutator"},
        new String[] {"hbase.clientbuffering", "true"});
  }

  @Override
  protected RefusedWrite refusedWrite() {
    return new RefusedWrite(new String[] {"hbase.keyencoding", "long"}, "userABC",
        allByteValues(), "BAD_REQUEST");
  }
}
