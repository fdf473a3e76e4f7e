#!/bin/bash
# Joins the N pieces of one render, OUTPUT.part-K-of-N (aurora.part-0-of-4.mp4, as
# slurm-frame-range.sbatch or --frame-range by hand names them), into OUTPUT with
# ffmpeg's concat demuxer, without re-encoding: each piece starts with a key frame.
# OUTPUT appears only when whole; the pieces stay until you delete them.
#   Examples/scaling/join-pieces.sh aurora.mp4 4                                   # here
#   sbatch --dependency=afterok:$array Examples/scaling/join-pieces.sh aurora.mp4 4  # on Slurm
#SBATCH --job-name=join-pieces
#SBATCH --cpus-per-task=1
#SBATCH --mem=1G
#SBATCH --output=join-pieces-%j.log
set -euo pipefail
usage="usage: join-pieces.sh OUTPUT PIECES"
output=${1:?$usage} n=${2:?$usage}
case $output in
    *.mp4) options=(-movflags +faststart) ;;
    *.mov) options=(-movflags +write_colr) ;;
    *.webm) options=() ;;
    *) echo "join-pieces.sh: $output: pieces join as .mp4, .mov or .webm" >&2; exit 2 ;;
esac
directory=$(dirname "$output") name=$(basename "$output")
tag=${SLURM_JOB_ID:-$$}
list="$directory/.$name.join-$tag.txt" partial="$directory/.$name.join-$tag.${name##*.}"
trap 'rm -f "$list" "$partial"' EXIT
for ((k = 0; k < n; k++)); do
    piece="${name%.*}.part-$k-of-$n.${name##*.}"
    [ -f "$directory/$piece" ] || { echo "join-pieces.sh: $directory/$piece is missing" >&2; exit 3; }
    # Each piece's exact length, frames ÷ rate, places the next: the containers round their
    # own (an .mp4 to the millisecond), which would shift every later frame a little.
    facts=$(ffprobe -v error -select_streams v:0 -count_packets -show_entries stream=r_frame_rate,nb_read_packets \
        -of default=noprint_wrappers=1 "$directory/$piece")
    rate=$(sed -n 's/^r_frame_rate=//p' <<< "$facts") count=$(sed -n 's/^nb_read_packets=//p' <<< "$facts")
    microseconds=$(((count * ${rate#*/} * 2000000 / ${rate%/*} + 1) / 2))
    printf "file '%s'\nduration %d.%06d\n" "${piece//\'/\'\\\'\'}" $((microseconds / 1000000)) \
        $((microseconds % 1000000)) >> "$list"
done
ffmpeg -hide_banner -loglevel error -xerror -y -f concat -safe 0 -i "$list" -c copy "${options[@]}" \
    -fflags +bitexact "$partial"
mv -f "$partial" "$output"
echo "joined $n pieces into $output"
