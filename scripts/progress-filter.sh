#!/usr/bin/env bash
# Reads `pip install -v` output of a compiled package on stdin and shows the build's progress
# as it happens: the step count ([N/193]) and the time since the filter started; at the end,
# where pip cached the wheel it built. A bash `read` loop, so each line shows as it arrives
# (Debian's awk, mawk, buffers a pipe: an awk filter showed nothing until the build ended).
# On a terminal the progress is one line rewritten in place; elsewhere (a log file, a pipe)
# it is one line per step.
set -uo pipefail
SECONDS=0
if [[ -t 1 ]]; then start=$'\r'; end=""; else start=""; end=$'\n'; fi
step_re='\[([0-9]+)/([0-9]+)\]'
stored_re='Stored in directory: (.*)$'
wheel_re='Created wheel for ([^:]+): filename=([^ ]+)'
shown="" cache="" wheel=""
elapsed() { printf '%d:%02d' $((SECONDS / 60)) $((SECONDS % 60)); }
while IFS= read -r line || [[ -n "$line" ]]; do
  if [[ "$line" =~ $step_re ]]; then
    step="[${BASH_REMATCH[1]}/${BASH_REMATCH[2]}]"
    if [[ "$step" != "$shown" ]]; then
      printf '%s    compiling %s · %s elapsed%s' "$start" "$step" "$(elapsed)" "$end"
      shown="$step"
    fi
  elif [[ "$line" =~ $wheel_re ]]; then
    wheel="${BASH_REMATCH[2]}"
  elif [[ "$line" =~ $stored_re ]]; then
    cache="${BASH_REMATCH[1]}"
  fi
done
[[ -n "$shown" && -n "$start" ]] && printf '\n'
if [[ -n "$cache" ]]; then
  echo "    built ${wheel:-the wheel} in $(elapsed); a new .venv here installs it without compiling"
  echo "    pip cached the wheel in ${cache}"
fi
