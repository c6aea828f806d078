# Helpers for scripts that show each command before running it (scripts/demo):
# what is shown pastes into a shell as it stands, and a Tool process's stderr
# is labelled so that it does not read as the command's own output.

# The arguments as shell words: bare where that is safe, else single-quoted.
shell_words() {
  local out="" word
  for word in "$@"; do
    if [[ -n $word && $word =~ ^[A-Za-z0-9_./:@%+=,-]+$ ]]; then
      out+="$word "
    else
      out+="'${word//\'/\'\\\'\'}' "
    fi
  done
  printf '%s' "${out% }"
}

# Prints "$ COMMAND" (quoted as shell_words does) on stderr, then runs it.
shown() {
  printf '$ %s\n' "$(shell_words "$@")" >&2
  "$@"
}

# Runs a command with its stderr held until it ends, then written to stderr
# with each line that is not flow-host's own labelled as the Tool process's.
# The command's exit status is kept.
labelled_stderr() {
  local held status=0
  held=$(mktemp)
  "$@" 2>"$held" || status=$?
  sed -e '/^flow-host: /!s/^/  [Tool process stderr] /' "$held" >&2
  rm -f "$held"
  return "$status"
}

# shown, with the command's stderr labelled as labelled_stderr does.
shown_labelled() {
  printf '$ %s\n' "$(shell_words "$@")" >&2
  labelled_stderr "$@"
}
