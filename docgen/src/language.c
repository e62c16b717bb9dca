/*
 * language.c: the words of the pages in the languages DirectML's reference
 * pages are published in.
 *
 * The example blocks' keys are the operator desc's field names (InputTensor,
 * Axis, AxisDirection, HasExclusiveSum, HasExclusiveProduct, OutputTensor),
 * which translated pages usually keep; a page translated word by word writes
 * them in its own language ("Achse: 3", "Eingabe: (...)"). This file knows
 * those words in German, French, Spanish, Italian and Portuguese; page.c
 * recognises blocks in other languages by their structure alone.
 *
 * It also says which languages write decimal commas (from a language tag
 * such as "de-DE"), and which words show a page's language: the words that
 * introduce an explanatory comment ("i.e.", "d.h.", "c.-à-d.") and that
 * title an example ("Example", "Beispiel", "Ejemplo").
 *
 * Words are compared without regard to ASCII case, blanks, '_' and '-', so
 * "Has Exclusive Sum" and "has_exclusive_sum" are HasExclusiveSum. Bytes
 * outside ASCII (é, ß, ç) are compared as they are.
 */
#include "docgen_internal.h"

#include <string.h>

typedef struct keyword
{
    const char *word;
    language_role role;
    const char *language; /* a tag; NULL for the field names themselves, which every language keeps */
} keyword;

static const keyword keywords[] = {
    /* The desc's field names, and their short forms. */
    {"InputTensor", ROLE_INPUT, NULL},
    {"OutputTensor", ROLE_OUTPUT, NULL},
    {"Axis", ROLE_AXIS, NULL},
    {"AxisDirection", ROLE_DIRECTION, NULL},
    {"HasExclusiveSum", ROLE_EXCLUSIVE_SUM, NULL},
    {"HasExclusiveProduct", ROLE_EXCLUSIVE_PRODUCT, NULL},
    {"Input", ROLE_INPUT, "en"},
    {"Output", ROLE_OUTPUT, "en"},
    {"Direction", ROLE_DIRECTION, "en"},
    {"ExclusiveSum", ROLE_EXCLUSIVE_SUM, "en"},
    {"ExclusiveProduct", ROLE_EXCLUSIVE_PRODUCT, "en"},
    /* German. */
    {"Eingabe", ROLE_INPUT, "de"},
    {"Eingabetensor", ROLE_INPUT, "de"},
    {"Eingangstensor", ROLE_INPUT, "de"},
    {"Ausgabe", ROLE_OUTPUT, "de"},
    {"Ausgabetensor", ROLE_OUTPUT, "de"},
    {"Ausgangstensor", ROLE_OUTPUT, "de"},
    {"Achse", ROLE_AXIS, "de"},
    {"Achsenrichtung", ROLE_DIRECTION, "de"},
    {"Richtung", ROLE_DIRECTION, "de"},
    {"HatExklusiveSumme", ROLE_EXCLUSIVE_SUM, "de"},
    {"ExklusiveSumme", ROLE_EXCLUSIVE_SUM, "de"},
    {"HatExklusivesProdukt", ROLE_EXCLUSIVE_PRODUCT, "de"},
    {"ExklusivesProdukt", ROLE_EXCLUSIVE_PRODUCT, "de"},
    /* French. */
    {"Entr\xc3\xa9"
     "e",
     ROLE_INPUT, "fr"},
    {"Tenseur d'entr\xc3\xa9"
     "e",
     ROLE_INPUT, "fr"},
    {"Tenseur d\xe2\x80\x99"
     "entr\xc3\xa9"
     "e",
     ROLE_INPUT, "fr"},
    {"Sortie", ROLE_OUTPUT, "fr"},
    {"Tenseur de sortie", ROLE_OUTPUT, "fr"},
    {"Axe", ROLE_AXIS, "fr"},
    {"Direction de l'axe", ROLE_DIRECTION, "fr"},
    {"Direction de l\xe2\x80\x99"
     "axe",
     ROLE_DIRECTION, "fr"},
    {"Sens", ROLE_DIRECTION, "fr"},
    {"Somme exclusive", ROLE_EXCLUSIVE_SUM, "fr"},
    {"A une somme exclusive", ROLE_EXCLUSIVE_SUM, "fr"},
    {"Produit exclusif", ROLE_EXCLUSIVE_PRODUCT, "fr"},
    {"A un produit exclusif", ROLE_EXCLUSIVE_PRODUCT, "fr"},
    /* Spanish. */
    {"Entrada", ROLE_INPUT, "es"},
    {"Tensor de entrada", ROLE_INPUT, "es"},
    {"Salida", ROLE_OUTPUT, "es"},
    {"Tensor de salida", ROLE_OUTPUT, "es"},
    {"Eje", ROLE_AXIS, "es"},
    {"Direcci\xc3\xb3n del eje", ROLE_DIRECTION, "es"},
    {"Direcci\xc3\xb3n", ROLE_DIRECTION, "es"},
    {"Suma exclusiva", ROLE_EXCLUSIVE_SUM, "es"},
    {"Tiene suma exclusiva", ROLE_EXCLUSIVE_SUM, "es"},
    {"Producto exclusivo", ROLE_EXCLUSIVE_PRODUCT, "es"},
    {"Tiene producto exclusivo", ROLE_EXCLUSIVE_PRODUCT, "es"},
    /* Italian. */
    {"Ingresso", ROLE_INPUT, "it"},
    {"Tensore di input", ROLE_INPUT, "it"},
    {"Uscita", ROLE_OUTPUT, "it"},
    {"Tensore di output", ROLE_OUTPUT, "it"},
    {"Asse", ROLE_AXIS, "it"},
    {"Direzione dell'asse", ROLE_DIRECTION, "it"},
    {"Direzione", ROLE_DIRECTION, "it"},
    {"Somma esclusiva", ROLE_EXCLUSIVE_SUM, "it"},
    {"Ha somma esclusiva", ROLE_EXCLUSIVE_SUM, "it"},
    {"Prodotto esclusivo", ROLE_EXCLUSIVE_PRODUCT, "it"},
    {"Ha prodotto esclusivo", ROLE_EXCLUSIVE_PRODUCT, "it"},
    /* Portuguese. */
    {"Tensor de entrada", ROLE_INPUT, "pt"},
    {"Sa\xc3\xad"
     "da",
     ROLE_OUTPUT, "pt"},
    {"Tensor de sa\xc3\xad"
     "da",
     ROLE_OUTPUT, "pt"},
    {"Eixo", ROLE_AXIS, "pt"},
    {"Dire\xc3\xa7\xc3\xa3o do eixo", ROLE_DIRECTION, "pt"},
    {"Dire\xc3\xa7\xc3\xa3o", ROLE_DIRECTION, "pt"},
    {"Soma exclusiva", ROLE_EXCLUSIVE_SUM, "pt"},
    {"Tem soma exclusiva", ROLE_EXCLUSIVE_SUM, "pt"},
    {"Produto exclusivo", ROLE_EXCLUSIVE_PRODUCT, "pt"},
    {"Tem produto exclusivo", ROLE_EXCLUSIVE_PRODUCT, "pt"},
};

/* Words that show a page's language: those that introduce an explanatory
 * comment, and those that title an example. */
typedef struct language_word
{
    const char *word;
    const char *language;
} language_word;

static const language_word markers[] = {
    {"i.e.", "en"},
    {"that is", "en"},
    {"d.h.", "de"},
    {"das hei\xc3\x9ft", "de"},
    {"c.-\xc3\xa0-d.", "fr"},
    {"c-\xc3\xa0-d", "fr"},
    {"c'est-\xc3\xa0-dire", "fr"},
    {"es decir", "es"},
    {"p. ej.", "es"},
    {"cio\xc3\xa8", "it"},
    {"ossia", "it"},
    {"ou seja", "pt"},
    {"isto \xc3\xa9", "pt"},
};

static const language_word example_words[] = {
    {"Example", "en"}, {"Beispiel", "de"}, {"Exemple", "fr"}, {"Ejemplo", "es"}, {"Esempio", "it"}, {"Exemplo", "pt"},
};

/* Languages by the primary subtag of their tag, and how they write the
 * decimal separator. */
typedef struct language_info
{
    const char *tag;
    const char *name;
    bool decimal_comma;
} language_info;

static const language_info languages[] = {
    {"en", "English", false},  {"de", "German", true},     {"fr", "French", true},     {"es", "Spanish", true},
    {"it", "Italian", true},   {"pt", "Portuguese", true}, {"nl", "Dutch", true},      {"ru", "Russian", true},
    {"pl", "Polish", true},    {"cs", "Czech", true},      {"sk", "Slovak", true},     {"sv", "Swedish", true},
    {"da", "Danish", true},    {"nb", "Norwegian", true},  {"nn", "Norwegian", true},  {"no", "Norwegian", true},
    {"fi", "Finnish", true},   {"tr", "Turkish", true},    {"hu", "Hungarian", true},  {"ro", "Romanian", true},
    {"uk", "Ukrainian", true}, {"bg", "Bulgarian", true},  {"hr", "Croatian", true},   {"sl", "Slovenian", true},
    {"sr", "Serbian", true},   {"el", "Greek", true},      {"id", "Indonesian", true}, {"vi", "Vietnamese", true},
    {"et", "Estonian", true},  {"lv", "Latvian", true},    {"lt", "Lithuanian", true}, {"ca", "Catalan", true},
    {"gl", "Galician", true},  {"eu", "Basque", true},     {"kk", "Kazakh", true},     {"ja", "Japanese", false},
    {"zh", "Chinese", false},  {"ko", "Korean", false},    {"he", "Hebrew", false},    {"th", "Thai", false},
    {"hi", "Hindi", false},    {"ms", "Malay", false},     {"ar", "Arabic", false},
};

/* Regions whose language writes a decimal point where the language mostly
 * writes a comma. */
static const char *const decimal_point_regions[] = {"es-mx", "es-us", "es-419", "de-ch", "de-li", "it-ch"};

static char fold(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static bool ignored(char c)
{
    return c == ' ' || c == '\t' || c == '_' || c == '-';
}

/* True when text[0, length) is `word`, ignoring ASCII case, blanks, '_' and
 * '-'. */
static bool same_word(const char *text, size_t length, const char *word)
{
    size_t i = 0;
    for (;;)
    {
        while (i < length && ignored(text[i]))
            ++i;
        while (*word && ignored(*word))
            ++word;
        if (i == length || !*word)
            return i == length && !*word;
        if (fold(text[i]) != fold(*word))
            return false;
        ++i;
        ++word;
    }
}

language_role language_key(const char *key, size_t length, const char **language)
{
    for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); ++i)
    {
        if (same_word(key, length, keywords[i].word))
        {
            if (language)
                *language = keywords[i].language;
            return keywords[i].role;
        }
    }
    if (language)
        *language = NULL;
    return ROLE_NONE;
}

const char *language_role_name(language_role role)
{
    switch (role)
    {
    case ROLE_INPUT:
        return "InputTensor";
    case ROLE_OUTPUT:
        return "OutputTensor";
    case ROLE_AXIS:
        return "Axis";
    case ROLE_DIRECTION:
        return "AxisDirection";
    case ROLE_EXCLUSIVE_SUM:
        return "HasExclusiveSum";
    case ROLE_EXCLUSIVE_PRODUCT:
        return "HasExclusiveProduct";
    case ROLE_EXCLUSIVE:
        return "HasExclusiveSum or HasExclusiveProduct";
    default:
        return "";
    }
}

int language_boolean(const char *word, size_t length)
{
    static const char *const truths[] = {"TRUE", "WAHR", "VRAI", "VERDADERO", "VERO", "VERDADEIRO"};
    static const char *const lies[] = {"FALSE", "FALSCH", "FAUX", "FALSO"};
    for (size_t i = 0; i < sizeof(truths) / sizeof(truths[0]); ++i)
    {
        if (strlen(truths[i]) == length && same_word(word, length, truths[i]))
            return 1;
    }
    for (size_t i = 0; i < sizeof(lies) / sizeof(lies[0]); ++i)
    {
        if (strlen(lies[i]) == length && same_word(word, length, lies[i]))
            return 0;
    }
    return -1;
}

/* True when text[0, length) holds `stem`, ignoring ASCII case. */
static bool holds(const char *text, size_t length, const char *stem)
{
    size_t n = strlen(stem);
    for (size_t i = 0; i + n <= length; ++i)
    {
        size_t k = 0;
        while (k < n && fold(text[i + k]) == stem[k])
            ++k;
        if (k == n)
            return true;
    }
    return false;
}

language_role language_exclusive_stem(const char *key, size_t length)
{
    static const char *const sums[] = {"sum", "somm", "soma", "\xd1\x81\xd1\x83\xd0\xbc\xd0\xbc"};
    static const char *const products[] = {"prod", "\xd0\xbf\xd1\x80\xd0\xbe\xd0\xb8\xd0\xb7\xd0\xb2"};
    bool sum = false, product = false;
    for (size_t i = 0; i < sizeof(sums) / sizeof(sums[0]); ++i)
        sum |= holds(key, length, sums[i]);
    for (size_t i = 0; i < sizeof(products) / sizeof(products[0]); ++i)
        product |= holds(key, length, products[i]);
    if (sum == product)
        return ROLE_NONE;
    return sum ? ROLE_EXCLUSIVE_SUM : ROLE_EXCLUSIVE_PRODUCT;
}

/* The word of `table` that `text` starts with (followed by a non-letter),
 * or NULL. */
static const language_word *starts_with(const language_word *table, size_t count, const char *text, size_t length,
                                        size_t *word_length)
{
    for (size_t i = 0; i < count; ++i)
    {
        size_t n = strlen(table[i].word);
        if (n > length)
            continue;
        size_t k = 0;
        while (k < n && fold(text[k]) == fold(table[i].word[k]))
            ++k;
        char next = n < length ? fold(text[n]) : ' ';
        if (k == n && !(next >= 'a' && next <= 'z'))
        {
            *word_length = n;
            return &table[i];
        }
    }
    return NULL;
}

const char *language_marker(const char *text, size_t length, size_t *marker_length)
{
    const language_word *word = starts_with(markers, sizeof(markers) / sizeof(markers[0]), text, length, marker_length);
    return word ? word->language : NULL;
}

const char *language_example_word(const char *text, size_t length, size_t *word_length)
{
    const language_word *word =
        starts_with(example_words, sizeof(example_words) / sizeof(example_words[0]), text, length, word_length);
    return word ? word->language : NULL;
}

const char *language_tag_info(const char *tag, size_t length, bool *decimal_comma)
{
    size_t primary = 0;
    while (primary < length && tag[primary] != '-' && tag[primary] != '_')
        ++primary;
    for (size_t i = 0; i < sizeof(languages) / sizeof(languages[0]); ++i)
    {
        if (strlen(languages[i].tag) != primary || !same_word(tag, primary, languages[i].tag))
            continue;
        bool comma = languages[i].decimal_comma;
        for (size_t r = 0; comma && r < sizeof(decimal_point_regions) / sizeof(decimal_point_regions[0]); ++r)
        {
            const char *region = decimal_point_regions[r];
            if (strlen(region) == length && same_word(tag, length, region))
                comma = false;
        }
        *decimal_comma = comma;
        return languages[i].name;
    }
    return NULL;
}

/* ---- the language of a page ------------------------------------------------ */

static bool is_tag_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/* A metadata line "ms.contentlocale: de-DE" (also locale, lang, language,
 * content-language; quotes allowed): the tag's span and what it says. */
static bool metadata_line(const docgen_page *page, uint32_t line, page_language *language)
{
    static const char *const keys[] = {"ms.contentlocale", "locale", "lang", "language", "content-language"};
    size_t i = page_line_start(page, line), end = page_line_end(page, line);
    const char *text = page->text;
    while (i < end && page_is_blank(text[i]))
        ++i;
    size_t key = i;
    while (i < end && text[i] != ':' && !page_is_blank(text[i]))
        ++i;
    size_t key_end = i;
    while (i < end && page_is_blank(text[i]))
        ++i;
    if (i == end || text[i] != ':')
        return false;
    bool known = false;
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]) && !known; ++k)
    {
        size_t n = strlen(keys[k]);
        known = key_end - key == n;
        for (size_t j = 0; known && j < n; ++j)
            known = fold(text[key + j]) == keys[k][j];
    }
    if (!known)
        return false;
    ++i;
    while (i < end && (page_is_blank(text[i]) || text[i] == '"' || text[i] == '\''))
        ++i;
    size_t tag = i;
    while (i < end && is_tag_char(text[i]))
        ++i;
    if (i == tag)
        return false;
    bool comma = false;
    const char *name = language_tag_info(text + tag, i - tag, &comma);
    if (!name)
        return false;
    language->name = name;
    language->decimal_comma = comma;
    language->metadata = true;
    language->offset = tag;
    language->length = i - tag;
    return true;
}

/* How often each language's words appear, and where first. */
typedef struct tally
{
    const char *language;
    size_t count;
    size_t offset, length;
} tally;

static void count_word(tally *tallies, size_t *used, size_t capacity, const char *language, size_t offset,
                       size_t length)
{
    size_t t = 0;
    while (t < *used && strcmp(tallies[t].language, language))
        ++t;
    if (t == *used)
    {
        if (*used == capacity)
            return;
        tallies[t].language = language;
        tallies[t].count = 0;
        tallies[t].offset = offset;
        tallies[t].length = length;
        ++*used;
    }
    ++tallies[t].count;
}

/* The words of one line that show a language: a key at its start ("Achse:"),
 * a word that titles an example ("### Beispiel 2"), a word that introduces a
 * comment ("// d.h."). */
static void count_line(const docgen_page *page, uint32_t line, tally *tallies, size_t *used, size_t capacity)
{
    size_t start = page_line_start(page, line), end = page_line_end(page, line);
    const char *text = page->text;
    size_t i = start;
    while (i < end && (page_is_blank(text[i]) || text[i] == '#'))
        ++i;
    size_t length = 0;
    const char *language = language_example_word(text + i, end - i, &length);
    if (language)
        count_word(tallies, used, capacity, language, i, length);
    size_t colon = i;
    while (colon < end && text[colon] != ':' && colon - i < 48)
        ++colon;
    if (colon < end && text[colon] == ':')
    {
        size_t key_end = colon;
        while (key_end > i && page_is_blank(text[key_end - 1]))
            --key_end;
        if (language_key(text + i, key_end - i, &language) != ROLE_NONE && language)
            count_word(tallies, used, capacity, language, i, key_end - i);
    }
    for (size_t c = start; c + 1 < end; ++c)
    {
        if (text[c] != '/' || text[c + 1] != '/')
            continue;
        size_t m = c + 2;
        while (m < end && page_is_blank(text[m]))
            ++m;
        language = language_marker(text + m, end - m, &length);
        if (language)
            count_word(tallies, used, capacity, language, m, length);
        break;
    }
}

bool language_of_page(const docgen_page *page, page_language *language)
{
    memset(language, 0, sizeof(*language));
    for (uint32_t line = 1; line <= page->line_count; ++line)
    {
        if (metadata_line(page, line, language))
            return true;
    }
    tally tallies[sizeof(languages) / sizeof(languages[0])];
    size_t used = 0;
    for (uint32_t line = 1; line <= page->line_count; ++line)
        count_line(page, line, tallies, &used, sizeof(tallies) / sizeof(tallies[0]));
    size_t best = used;
    for (size_t t = 0; t < used; ++t)
    {
        if (best == used || tallies[t].count > tallies[best].count)
            best = t;
    }
    if (best == used)
        return false;
    bool comma = false;
    language->name = language_tag_info(tallies[best].language, strlen(tallies[best].language), &comma);
    language->decimal_comma = comma;
    language->offset = tallies[best].offset;
    language->length = tallies[best].length;
    return language->name != NULL;
}
