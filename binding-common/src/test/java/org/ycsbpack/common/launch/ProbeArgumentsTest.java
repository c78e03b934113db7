package org.ycsbpack.common.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProbeArgumentsTest {
  @Test
  void propertiesMergeAsInYcsbAndWatchIsInMilliseconds(@TempDir File dir) throws Exception {
    File a = new File(dir, "a.properties");
    Files.write(a.toPath(), "hosts=10.0.0.1\ntable=t\n".getBytes(StandardCharsets.UTF_8));
    ProbeArguments p = ProbeArguments.parse(new String[] {"-p", "hosts=127.0.0.1", "-P",
        a.getPath(), "-watch", "2"});
    assertEquals("127.0.0.1", p.properties.getProperty("hosts"));
    assertEquals("t", p.properties.getProperty("table"));
    assertEquals(2000, p.watchMs);
    assertEquals(0, ProbeArguments.parse(new String[0]).watchMs);
    assertEquals(500, ProbeArguments.parse(new String[] {"-watch", "0.5"}).watchMs);
  }

  @Test
  void badArgumentsGetOneSentence() {
    assertEquals("-watch 0: expected the seconds between samples, a number from 0.1 to 86400 "
        + "(e.g. -watch 2)", message("-watch", "0"));
    assertEquals("-watch x: expected the seconds between samples, a number from 0.1 to 86400 "
        + "(e.g. -watch 2)", message("-watch", "x"));
    assertEquals("option -p needs a value", message("-p"));
    assertEquals("-p hosts: expected key=value", message("-p", "hosts"));
    assertEquals("unexpected argument '-threads': the server probe takes -P file, -p key=value "
        + "and -watch SECONDS", message("-threads", "2"));
  }

  @Test
  void secretSettingNamesAreFoundByTheSharedWords() {
    assertEquals(true, SecretNames.isSecret("server_encryption_options.keystore_password"));
    assertEquals(true, SecretNames.isSecret("num_tokens"));
    assertEquals(false, SecretNames.isSecret("num_tokens", java.util.Collections.singleton(
        "token")));
    assertEquals(false, SecretNames.isSecret("memtable_heap_space"));
  }

  private static String message(String... args) {
    return assertThrows(IllegalArgumentException.class, () -> ProbeArguments.parse(args))
        .getMessage();
  }
}
