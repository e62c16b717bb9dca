#!/usr/bin/env python3
"""Checks that every arrow of the tree points down.

The rooms, their floors and what each may include are the table in
docs/architecture.md ("| floor | room | its job | may include |"). This
script reads that table and checks, against it:

- every #include of every .c and .h file in a room: the header it names must
  lie in the same room, or in the public include/ folder of a room the table
  lets it include; never in another room's src/ (or any folder but include/);
- every target_link_libraries, target_include_directories and
  include_directories of every CMakeLists.txt in a room: the targets and
  folders must belong to the room itself or to rooms it may include.

A room's tests/ and bench/ folders belong to the room. Files that lie in no
room of the table are errors too, so a new folder is placed in the table
before it builds.

Usage: check_floors.py [ROOT]   (default: the checkout this script is in)
Prints one line per arrow that points the wrong way, as FILE:LINE: message,
and exits 1 when there is one, 2 when the table cannot be read, 0 otherwise.
"""

import os
import re
import sys

SOURCE_SUFFIXES = (".c", ".h")
SKIPPED_FOLDERS = {"build", "node_modules", "__pycache__"}
# Targets defined by the root CMakeLists.txt (build flags, options) that every
# room may use, and targets from outside the project.
EXTERNAL_TARGET = re.compile(r"^(PkgConfig::|Threads::|\$\{|\$<|-)")
KEYWORDS = {"PUBLIC", "PRIVATE", "INTERFACE", "BEFORE", "AFTER", "SYSTEM", "LINK_PUBLIC", "LINK_PRIVATE",
            "LINK_INTERFACE_LIBRARIES", "debug", "optimized", "general"}


class Problem(Exception):
    pass


def read_rooms(root):
    """The table of docs/architecture.md: {room: (floor, set of rooms it may include)}."""
    path = os.path.join(root, "docs", "architecture.md")
    try:
        with open(path, encoding="utf-8") as page:
            lines = page.read().splitlines()
    except OSError as error:
        raise Problem(f"{path}: cannot read the rooms' table: {error.strerror}")
    rooms = {}
    in_table = False
    for number, line in enumerate(lines, 1):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")] if line.startswith("|") else None
        if cells and cells[:2] == ["floor", "room"]:
            in_table = True
            continue
        if not in_table:
            continue
        if not cells:
            break
        if set(cells[0]) <= set("-: "):
            continue
        if len(cells) != 4 or not cells[0].isdigit():
            raise Problem(f"{path}:{number}: a row of the rooms' table needs a floor number, a room, "
                          "its job and what it may include")
        names = re.findall(r"`([^`]+)`", cells[1])
        if len(names) != 1:
            raise Problem(f"{path}:{number}: name exactly one room, in backquotes")
        room = names[0].rstrip("/")
        if room in rooms:
            raise Problem(f"{path}:{number}: `{room}` is in the table twice")
        rooms[room] = (int(cells[0]), set(re.findall(r"`([^`]+)`", cells[3])), number)
    if not rooms:
        raise Problem(f"{path}: no rooms' table (a header row \"| floor | room | its job | may include |\")")
    for room, (floor, allowed, number) in rooms.items():
        for other in allowed:
            if other not in rooms:
                raise Problem(f"{path}:{number}: `{room}` may include `{other}`, which is no room of the table")
            if rooms[other][0] >= floor:
                raise Problem(f"{path}:{number}: `{room}` (floor {floor}) may include `{other}` "
                              f"(floor {rooms[other][0]}): an arrow that does not point down")
    return {room: (floor, allowed) for room, (floor, allowed, _) in rooms.items()}


def room_of(path, rooms):
    """The room a path (relative to the root, with '/') lies in, or None."""
    best = None
    for room in rooms:
        if (path == room or path.startswith(room + "/")) and (best is None or len(room) > len(best)):
            best = room
    return best


def walk_files(root, wanted):
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders
                               if not d.startswith(".") and d not in SKIPPED_FOLDERS and not d.startswith("build"))
        for name in sorted(names):
            if wanted(name):
                yield os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")


def may_use(source_room, target_room, rooms):
    return target_room == source_room or target_room in rooms[source_room][1]


class Checker:
    def __init__(self, root):
        self.root = root
        self.rooms = read_rooms(root)
        self.problems = []
        self.sources = set(walk_files(root, lambda name: name.endswith(SOURCE_SUFFIXES)))
        # Where each header can be found by a path that ends with the name an
        # #include writes: the public include/ folders, then any folder.
        self.by_suffix = {}
        for path in self.sources:
            parts = path.split("/")
            for start in range(len(parts)):
                self.by_suffix.setdefault("/".join(parts[start:]), []).append(path)

    def report(self, path, line, message):
        self.problems.append(f"{path}:{line}: {message}")

    def resolve(self, source, name, quoted):
        """The header an #include names: beside the source (quoted only), in the source's own
        room, in a room's public include/ folder, or (quoted only) anywhere else in the tree;
        None for a system or outside header, a list when several files could be meant."""
        if quoted:
            beside = os.path.normpath(os.path.join(os.path.dirname(source), name)).replace(os.sep, "/")
            if beside in self.sources:
                return beside
        candidates = self.by_suffix.get(name, [])
        source_room = room_of(source, self.rooms)
        for choose in (lambda c: room_of(c, self.rooms) == source_room,
                       lambda c: ("/" + c).endswith("/include/" + name),
                       lambda c: quoted):
            chosen = [c for c in candidates if choose(c)]
            if len(chosen) == 1:
                return chosen[0]
            if len(chosen) > 1:
                return chosen
        return None

    def check_includes(self):
        include = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
        for source in sorted(self.sources):
            source_room = room_of(source, self.rooms)
            if source_room is None:
                self.report(source, 1, "this file lies in no room of docs/architecture.md")
                continue
            with open(os.path.join(self.root, source), encoding="utf-8", errors="replace") as text:
                for number, line in enumerate(text, 1):
                    match = include.match(line)
                    if not match:
                        continue
                    name = match.group(2)
                    target = self.resolve(source, name, match.group(1) == '"')
                    if target is None:
                        continue
                    if isinstance(target, list):
                        self.report(source, number, f"#include \"{name}\" could be any of {', '.join(target)}: "
                                    "name the header by a path no other file ends with")
                        continue
                    self.check_arrow(source, number, source_room, target, f"#include {name} ({target})")

    def check_arrow(self, source, number, source_room, target, what):
        target_room = room_of(target, self.rooms)
        if target_room is None:
            self.report(source, number, f"{what}: lies in no room of docs/architecture.md")
        elif target_room == source_room:
            return
        elif not may_use(source_room, target_room, self.rooms):
            self.report(source, number, f"{what}: `{source_room}` (floor {self.rooms[source_room][0]}) may not "
                        f"use `{target_room}` (floor {self.rooms[target_room][0]})")
        elif "/include/" not in "/" + target[len(target_room):] + "/":
            self.report(source, number, f"{what}: outside `{target_room}`'s public include/ folder")

    def cmake_commands(self, path):
        """(command, [(argument, line)], line) for every command of a CMakeLists.txt."""
        with open(os.path.join(self.root, path), encoding="utf-8") as text:
            content = text.read()
        content = re.sub(r"#[^\n]*", lambda m: " " * len(m.group(0)), content)
        for match in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", content):
            depth, end = 1, match.end()
            while end < len(content) and depth:
                depth += {"(": 1, ")": -1}.get(content[end], 0)
                end += 1
            arguments = [(word.group(0), content.count("\n", 0, match.end() + word.start()) + 1)
                         for word in re.finditer(r"\S+", content[match.end():end - 1])]
            yield match.group(1).lower(), arguments, content.count("\n", 0, match.start()) + 1

    def check_cmake(self):
        lists = list(walk_files(self.root, lambda name: name == "CMakeLists.txt"))
        owner = {}
        for path in lists:
            room = room_of(path, self.rooms)
            for command, arguments, _ in self.cmake_commands(path):
                words = [word for word, _ in arguments]
                if command in ("add_library", "add_executable") and words:
                    owner[words[0]] = room
                    if len(words) > 2 and words[1] == "ALIAS":
                        owner[words[0]] = owner.get(words[2], room)
        for path in lists:
            room = room_of(path, self.rooms)
            if room is None:
                continue  # the root and cmake/: the project's own settings
            folder = os.path.dirname(path)
            for command, arguments, _ in self.cmake_commands(path):
                if command == "target_link_libraries" and arguments:
                    target = arguments[0][0]
                    for dependency, number in arguments[1:]:
                        if dependency in KEYWORDS or EXTERNAL_TARGET.match(dependency):
                            continue
                        dependency_room = owner.get(dependency)
                        if dependency_room is None or dependency_room == room:
                            continue
                        if not may_use(room, dependency_room, self.rooms):
                            self.report(path, number, f"{target} links {dependency}: `{room}` (floor "
                                        f"{self.rooms[room][0]}) may not use `{dependency_room}` "
                                        f"(floor {self.rooms[dependency_room][0]})")
                elif command in ("target_include_directories", "include_directories"):
                    start = 1 if command == "target_include_directories" else 0
                    for word, number in arguments[start:]:
                        target = self.cmake_folder(folder, word)
                        if target is not None:
                            self.check_arrow(path, number, room, target + "/", f"{command} {word}")

    def cmake_folder(self, folder, word):
        """The folder (relative to the root) an include-directory argument names, or None."""
        word = re.sub(r"^\$<(BUILD|INSTALL)_INTERFACE:(.*)>$", r"\2", word)
        if word in KEYWORDS or word.startswith("$<INSTALL") or "CMAKE_INSTALL" in word:
            return None
        for variable in ("${PROJECT_SOURCE_DIR}", "${CMAKE_SOURCE_DIR}", "${dmlconf_SOURCE_DIR}"):
            if word.startswith(variable):
                return os.path.normpath(word[len(variable):].lstrip("/") or ".").replace(os.sep, "/")
        if word.startswith("${CMAKE_CURRENT_SOURCE_DIR}"):
            word = word[len("${CMAKE_CURRENT_SOURCE_DIR}"):].lstrip("/") or "."
        if word.startswith("$") or os.path.isabs(word):
            return None
        return os.path.normpath(os.path.join(folder, word)).replace(os.sep, "/")


def main(arguments):
    root = arguments[1] if len(arguments) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        checker = Checker(root)
        checker.check_includes()
        checker.check_cmake()
    except Problem as problem:
        print(f"check_floors: {problem}", file=sys.stderr)
        return 2
    for problem in checker.problems:
        print(problem)
    rooms = len(checker.rooms)
    if checker.problems:
        print(f"check_floors: {len(checker.problems)} arrow(s) that do not point down, in {rooms} rooms",
              file=sys.stderr)
        return 1
    print(f"check_floors: every arrow points down: {len(checker.sources)} C files in {rooms} rooms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
