package dev.mmcheck.maven;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The goals' parameters: each declared once along a goal's class hierarchy (the shared ones in
 * {@link AbstractMmcheckMojo}), and the names and {@code mmcheck.*} properties users set, as the plugin's generated
 * descriptor (META-INF/maven/plugin.xml) gives them, the same for every goal.
 */
class MojoParametersTest {

    /** The parameters every goal has, with the user property that sets each. */
    private static final Map<String, String> SHARED = Map.of("skip", "${mmcheck.skip}",
            "reportDirectory", "${mmcheck.reportDirectory}", "failOn", "${mmcheck.failOn}",
            "suppress", "${mmcheck.suppress}", "baseline", "${mmcheck.baseline}", "options", "${mmcheck.options}");

    @Test
    void noFieldIsDeclaredTwiceAlongAGoalsClasses() {
        for (Class<?> goal : List.of(CheckMojo.class, PrepareAgentMojo.class, PrepareAgentIntegrationMojo.class)) {
            Set<String> seen = new HashSet<>();
            for (Class<?> c = goal; c != Object.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    assertTrue(seen.add(f.getName()), goal.getSimpleName() + ": " + f.getName() + " declared twice");
                }
            }
        }
    }

    @Test
    void everyGoalTakesTheSharedParametersUnderTheirProperties() throws Exception {
        Document d;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/maven/plugin.xml")) {
            assertNotNull(in, "the plugin descriptor (maven-plugin-plugin's descriptor goal, process-classes)");
            d = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
        }
        NodeList mojos = d.getElementsByTagName("mojo");
        Set<String> goals = new HashSet<>();
        for (int i = 0; i < mojos.getLength(); i++) {
            Element mojo = (Element) mojos.item(i);
            String goal = mojo.getElementsByTagName("goal").item(0).getTextContent();
            goals.add(goal);
            Map<String, String> properties = new TreeMap<>();
            Element conf = (Element) mojo.getElementsByTagName("configuration").item(0);
            for (String name : SHARED.keySet()) {
                NodeList p = conf.getElementsByTagName(name);
                properties.put(name, p.getLength() == 0 ? null : p.item(0).getTextContent());
            }
            assertEquals(new TreeMap<>(SHARED), properties, goal);
        }
        assertEquals(Set.of("check", "prepare-agent", "prepare-agent-integration"), goals);
    }
}
