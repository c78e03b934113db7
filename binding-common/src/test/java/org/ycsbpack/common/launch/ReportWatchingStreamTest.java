package org.ycsbpack.common.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ReportWatchingStreamTest {
  @Test
  void seesTheFinalReportEvenWhenTheMarkerIsSplitAcrossWrites() throws Exception {
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    ReportWatchingStream w = new ReportWatchingStream(sink);
    w.write("Loading workload...\n[OVER".getBytes(StandardCharsets.US_ASCII));
    assertFalse(w.sawReport());
    w.write("ALL], RunTime(ms), 1234\n".getBytes(StandardCharsets.US_ASCII));
    assertTrue(w.sawReport());
    assertEquals("Loading workload...\n[OVERALL], RunTime(ms), 1234\n",
        sink.toString(StandardCharsets.US_ASCII.name()));
  }

  @Test
  void otherOutputIsNotAReport() throws Exception {
    ReportWatchingStream w = new ReportWatchingStream(new ByteArrayOutputStream());
    w.write("Missing property: workload\n[[OVERAL]\n".getBytes(StandardCharsets.US_ASCII));
    assertFalse(w.sawReport());
  }
}
