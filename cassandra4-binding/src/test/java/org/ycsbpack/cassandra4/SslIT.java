package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.ycsbpack.common.testing.YcsbProcess;

/** cassandra.ssl=true against the test node's TLS port (self-signed certificate, optional TLS). */
class SslIT {
  private static String[] load(String... more) {
    String[] base = {"load", "cassandra4", "-P", "workloads/s4/update-heavy.properties",
        "-p", "hosts=" + LocalCassandra.hosts(), "-p", "cassandra.keyspace=it_tls",
        "-p", "cassandra.createschema=true", "-p", "recordcount=40", "-p", "cassandra.ssl=true"};
    String[] all = new String[base.length + more.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(more, 0, all, base.length, more.length);
    return all;
  }

  @Test
  void aClientThatTrustsTheNodesCertificateRunsOverTls() throws Exception {
    String password = new String(Files.readAllBytes(LocalCassandra.tlsDir().resolve("password")),
        StandardCharsets.UTF_8).trim();
    YcsbProcess p = YcsbProcess.run(load("-jvm-args", "-Djavax.net.ssl.trustStore="
        + LocalCassandra.tlsDir().resolve("truststore.jks")
        + " -Djavax.net.ssl.trustStorePassword=" + password));
    assertEquals(0, p.exitStatus, p.toString());
    assertEquals("40", p.reportValue("INSERT", "Return=OK"), p.toString());
    assertFalse(p.stderr.contains(password), "the trust store password is masked");
    assertTrue(p.stderr.contains("-Djavax.net.ssl.trustStorePassword=*****"), p.stderr);
  }

  @Test
  void aClientThatDoesNotTrustTheCertificateIsToldWhatToCheck() throws Exception {
    YcsbProcess p = YcsbProcess.run(load());
    assertEquals(3, p.exitStatus, p.toString());
    assertTrue(p.stderr.contains("SSLHandshakeException"), p.stderr);
    assertTrue(p.stderr.contains("check cassandra.ssl and that the JVM trusts the nodes' "
        + "certificate"), p.stderr);
  }
}
