package dev.mmcheck.checker.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SARIF 2.1.0 JSON schema (OASIS, sarif-spec's sarif-2.1/schema/sarif-schema-2.1.0.json, shipped as a test
 * resource), and an assertion that a SARIF log obeys it: every test that writes SARIF checks its file with it.
 */
public final class SarifSchema {

    private static final JsonSchema SCHEMA = load();

    private SarifSchema() {
    }

    private static JsonSchema load() {
        try (InputStream in = SarifSchema.class.getResourceAsStream("/sarif/sarif-schema-2.1.0.json")) {
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4).getSchema(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The schema's complaints about {@code log}; empty when it is valid. */
    public static Set<ValidationMessage> problems(JsonNode log) {
        return SCHEMA.validate(log);
    }

    /** Fails unless {@code sarif} (the bytes of a SARIF log) is valid SARIF 2.1.0; returns it parsed. */
    public static JsonNode assertValid(byte[] sarif) {
        try {
            JsonNode log = new ObjectMapper().readTree(sarif);
            Set<ValidationMessage> problems = problems(log);
            assertTrue(problems.isEmpty(), "not valid SARIF 2.1.0: " + problems);
            return log;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
