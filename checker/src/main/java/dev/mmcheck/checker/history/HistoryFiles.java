package dev.mmcheck.checker.history;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Opens a history file of either format, text or JSON, telling them apart by the first character. */
public final class HistoryFiles {

    private HistoryFiles() {
    }

    /** Reads a history file: JSON if its first non-blank character is '{', else the text format. */
    public static History read(Path file) throws IOException, HistoryFormatException {
        String name = file.toString();
        if (Files.isDirectory(file)) {
            throw new HistoryFormatException(name, 0, "is a directory, not a history file");
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            throw new HistoryFormatException(name, 0, "is not UTF-8 text");
        }
        return parse(name, text);
    }

    /** Parses history {@code text} called {@code name}: JSON if it starts with '{', else text. */
    public static History parse(String name, String text) throws IOException, HistoryFormatException {
        String lead = text.stripLeading();
        if (lead.startsWith("\uFEFF")) {
            lead = lead.substring(1).stripLeading();
        }
        try (Reader r = new StringReader(text.startsWith("\uFEFF") ? text.substring(1) : text)) {
            return lead.startsWith("{") ? HistoryJson.read(name, r) : HistoryText.read(name, r);
        }
    }
}
