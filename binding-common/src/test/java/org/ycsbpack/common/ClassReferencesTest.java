package org.ycsbpack.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClassReferencesTest {
  @Test
  void aConstantReachedUpFromBelowClosesACircleNamedClassByClass() {
    Map<String, String> sources = Map.of(
        "Client", "class Client { Connection c = Connection.open(); String NAME = \"x\"; }",
        "Connection", "class Connection { Settings s; void warn() { log(Client.NAME); } }",
        "Settings", "final class Settings { int port; }");
    assertEquals(List.of("Client -> Connection -> Client"),
        ClassReferences.circles(ClassReferences.graph(sources)));
  }

  @Test
  void twoSeparateCirclesAreEachNamed() {
    Map<String, Set<String>> graph = Map.of("A", Set.of("B"), "B", Set.of("C"),
        "C", Set.of("A"), "D", Set.of("E"), "E", Set.of("D", "A"));
    assertEquals(List.of("A -> B -> C -> A", "D -> E -> D"), ClassReferences.circles(graph));
  }

  @Test
  void namesInCommentsAndLiteralsAreNoReference() {
    Map<String, String> sources = Map.of(
        "Upper", "class Upper { Lower l; }",
        "Lower", "/** Used by {@link Upper}. */ class Lower { // Upper\n"
            + " String s = \"Upper\"; char c = '\"'; String t = \"\"\"\n Upper \"\"\"; }");
    assertEquals(Map.of("Upper", Set.of("Lower"), "Lower", Set.of()),
        ClassReferences.graph(sources));
  }

  @Test
  void layeredClassesHaveNoCircle() {
    Map<String, String> sources = Map.of(
        "Client", "class Client { Connection c; Settings s; }",
        "Probe", "class Probe { Connection c; Properties p = Properties.NAME; }",
        "Connection", "class Connection { Settings s; }",
        "Settings", "class Settings { Properties p; }",
        "Properties", "class Properties { static final String NAME = \"x\"; }");
    assertEquals(List.of(), ClassReferences.circles(ClassReferences.graph(sources)));
  }

  @Test
  void theSharedModulesMainClassesFormLayers() {
    assertNull(ClassReferences.circlesMessage(
        ReadmePropertyTables.repoRoot().resolve("binding-common/src/main/java")));
  }
}
