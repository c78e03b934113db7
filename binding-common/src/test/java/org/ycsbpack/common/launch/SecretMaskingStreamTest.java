package org.ycsbpack.common.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SecretMaskingStreamTest {
  @Test
  void ycsbsEchoedCommandLineLosesPasswordValuesOnly() throws Exception {
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(new SecretMaskingStream(sink), true, "UTF-8");
    // YCSB 0.17 prints "Command line:" and then each argument with print(" " + arg)
    err.print("Command line:");
    for (String a : new String[] {"-p", "cassandra.password=s3cr3t", "-p",
        "cassandra.username=bob", "-jvm-args", "-Djavax.net.ssl.trustStorePassword=changeit"}) {
      err.print(" " + a);
    }
    err.println();
    assertEquals("Command line: -p cassandra.password=***** -p cassandra.username=bob "
        + "-jvm-args -Djavax.net.ssl.trustStorePassword=*****\n",
        sink.toString(StandardCharsets.UTF_8.name()));
  }

  @Test
  void aPartialLineIsPassedOnWhenFlushed() throws Exception {
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    SecretMaskingStream s = new SecretMaskingStream(sink);
    s.write("status 10 sec: 5 operations".getBytes(StandardCharsets.UTF_8));
    s.flush();
    assertEquals("status 10 sec: 5 operations", sink.toString(StandardCharsets.UTF_8.name()));
  }

  @Test
  void basicDbsQuotedPropertyDumpAndApiKeysAreMasked() {
    assertEquals("\"cassandra.password\"=*****", SecretMaskingStream.mask(
        "\"cassandra.password\"=\"two words\""));
    assertEquals("\"service.apikey\"=*****", SecretMaskingStream.mask(
        "\"service.apikey\"=\"k-123\""));
    assertEquals("\"recordcount\"=\"1000\"", SecretMaskingStream.mask("\"recordcount\"=\"1000\""));
    assertEquals("[READ], Return=OK, 5", SecretMaskingStream.mask("[READ], Return=OK, 5"));
  }
}
