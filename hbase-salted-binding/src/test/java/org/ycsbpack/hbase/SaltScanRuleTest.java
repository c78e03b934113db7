package org.ycsbpack.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ycsbpack.common.ReadmePropertyTables;
import org.ycsbpack.hbase.SaltedRowKey.KeyEncoding;

/**
 * Which salts can serve a SCAN in key order ({@link SaltedRowKey#scansInKeyOrder()}), and the
 * docs that restate it, read from the same rule.
 */
class SaltScanRuleTest {
  private static final SaltedRowKey CRC32 = SaltedRowKey.crc32(KeyEncoding.STRING);
  private static final SaltedRowKey MOST_BUCKETS =
      SaltedRowKey.buckets(SaltedRowKey.MAX_BUCKETS, KeyEncoding.LONG);
  private static final SaltedRowKey NONE = SaltedRowKey.none(KeyEncoding.STRING);

  @Test
  void crc32CannotScanWhileBucketsUpTo256AndNoSaltCan() {
    assertFalse(CRC32.scansInKeyOrder(), "65,536 scanners per SCAN");
    assertTrue(MOST_BUCKETS.scansInKeyOrder());
    assertTrue(SaltedRowKey.buckets(1, KeyEncoding.STRING).scansInKeyOrder());
    assertTrue(NONE.scansInKeyOrder());
  }

  @Test
  void theRefusalSaysWhyAndWhatToUseInstead() {
    assertEquals("hbase.salt=crc32 spreads keys over 65,536 prefixes, so a scan in key order "
        + "would take 65,536 scans; use hbase.salt=buckets:N (N up to 256) or none for "
        + "workloads with scans", CRC32.scanRefusal());
    assertNull(MOST_BUCKETS.scanRefusal());
    assertNull(NONE.scanRefusal());
  }

  @Test
  void theBindingPageSaltTableSaysWhichSaltsAreRefusedAsTheRuleDoes() throws Exception {
    Path page = ReadmePropertyTables.repoRoot().resolve("docs/bindings/hbase-salted.md");
    List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
    assertScansColumn(lines, page, "`crc32`", CRC32);
    assertScansColumn(lines, page, "`buckets:N`", MOST_BUCKETS);
    assertScansColumn(lines, page, "`none`", NONE);
  }

  @Test
  void theErrorsPageNamesTheSaltThatCannotScanForScanUnsupported() throws Exception {
    Path page = ReadmePropertyTables.repoRoot().resolve("docs/errors.md");
    String row = Files.readAllLines(page, StandardCharsets.UTF_8).stream()
        .filter(l -> l.startsWith("| `" + HBaseErrors.SCAN_UNSUPPORTED.getName() + "` |"))
        .findFirst().orElse(null);
    assertNotNull(row, page + " has no SCAN_UNSUPPORTED row");
    assertTrue(row.contains("`hbase.salt=" + CRC32.salt() + "`"), page + ": " + row);
  }

  /** The last cell of the salt table's row for {@code salt} is "refused" iff it cannot scan. */
  private static void assertScansColumn(List<String> lines, Path page, String salt,
                                        SaltedRowKey keys) {
    String row = lines.stream().filter(l -> l.startsWith("| " + salt)).findFirst().orElse(null);
    assertNotNull(row, page + " has no salt table row for " + salt);
    String[] cells = row.split("\\|");
    String scans = cells[cells.length - 1].trim();
    assertEquals(!keys.scansInKeyOrder(), scans.equals("refused"), page + " says SCAN under "
        + salt + " is '" + scans + "', but SaltedRowKey.scansInKeyOrder() (the rule) says it "
        + (keys.scansInKeyOrder() ? "scans" : "is refused") + ": update the page's salt table");
  }
}
