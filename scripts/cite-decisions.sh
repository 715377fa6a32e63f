#!/usr/bin/env bash
# cite-decisions.sh [DIR]: make the Go code under DIR (default: the current
# directory) cite docs/decisions.md instead of the records it was built from
# (0009, 0054, 0064 and pr-513), which are not in the repository.
#
# Each rule matches a citation by its words, not by its file, so it works on
# the tree before and after packages move; a line break inside a citation
# (a wrapped comment) is kept. It prints a diff of what it changed and the
# count, then every citation no rule maps, and exits 1 if there is one.
# Running it again changes nothing: no replacement cites a record.
set -euo pipefail

root=${1:-.}
# What still counts as a citation of a record after the rules have run.
leftover='([Rr]ecords? |ADRs? |\b)00(09|46|48|54|64)\b|pr-513|PR #?513'

rules=$(
	cat <<'PERL'
use strict;
use warnings;

# Between two words of a citation: spaces, or a comment's line break.
my $S = qr{(?:[ \t]*\n[ \t]*//[ \t]*|[ \t]+)};
my %item = (1 => 'D14', 2 => 'D15', 3 => 'D15', 4 => 'D16', 5 => 'D17', 6 => 'D18',
	7 => 'D19', 8 => 'D20', 9 => 'D21', 10 => 'D14', 11 => 'D22', 12 => 'D23');
my %amend = (1 => 'D25', 2 => 'D26', 3 => 'D26', 4 => 'D26', 5 => 'D27', 6 => 'D28',
	7 => 'D29');

# Specific phrases first, in order: [words, replacement]. A space in the words
# stands for $S; everything else is a regular expression.
my @phrases = (
	['They follow ADR 0009 \(', 'They follow docs/decisions.md: D4 ('],
	['\), 0046 and 0048 \(wisp approvals and facts\), and 0054 \(a nested',
		'), D5 (wisp approvals and facts), and D6 (a nested'],
	['the refusal check of ADR 0054 \(and pr-513 for Linux\)',
		'the refusal check of decisions D8 and D9 (docs/decisions.md)'],
	["worded as 0054's guess line", "worded as decision D10's guess line"],
	['\(0054, 2026-10-14\)', '(docs/decisions.md, D9)'],
	['bound the line \(0054\)', 'bound the line (docs/decisions.md, D10)'],
	["0054's wording", "decision D10's wording"],
	["0064's offer", "decision D23's offer"],
	["0054's Seatbelt profile had none", 'the Seatbelt profile of decision D10 had none'],
	["pr-513's grant nudge", "decision D13's grant nudge"],
	["pr-513's notes", "decision D13's notes"],
	["\\(pr-513's refuseFolder\\)", '(docs/decisions.md, D13)'],
	['ADR 0054, session ce87576a', 'decisions D8 and D9, session ce87576a'],
	['the corpus of 0054', 'the corpus of decision D9'],
	['the forms of ADRs 0009 and 0054', 'the forms of decisions D4 and D6'],
	['The forms ADR 0054 lists', 'The forms decision D6 lists'],
	['ADR 0054: wisp that', 'Decision D6: wisp that'],
	['on a line \(ADR 0009\)', 'on a line (docs/decisions.md, D4)'],
	['refused and guess \(ADR 0054\)', 'refused and guess (docs/decisions.md, D11)'],
	["ADR 0064's rules", 'the rules of decisions D16 and D17'],
	['Wording of records 0064 \(items 3, 9; amendment items 3, 4\)',
		'Wording of decisions D15, D21 and D26 (docs/decisions.md)'],
	["\\(0064's CommandRunner.OutsideSandbox\\)", '(docs/decisions.md, D15 and D21)'],
	["as 0054's test does", "as decision D8's test does"],
	['refusal \(0054\)', 'refusal (docs/decisions.md, D8)'],
	['command twice \(record 0009\)', 'command twice (docs/decisions.md, D2)'],
	['not as an error \(record 0009\)', 'not as an error (docs/decisions.md, D3)'],
	['nested profile \(0009\)', 'nested profile (docs/decisions.md, D2)'],
	['allowed \(0009\)', 'allowed (docs/decisions.md, D1)'],
	['as 0009 says', 'as decision D2 says'],
	['\(0064 items 5 and 7\)', '(docs/decisions.md, D17 and D19)'],
	["The colours record 0064's amendment names", 'The colours decision D28 names'],
	["Record 0064's amendment \\(item 6\\) names", 'Decision D28 names'],
	['the full-screen face of record 0064:', 'the full-screen face (docs/decisions.md, D28):'],
	["\\(record 0064's amendment\\)", '(docs/decisions.md, D25)'],
	['at once \(record 0054\)', 'at once (docs/decisions.md, D7)'],
	['when it does not \(0054\)', 'when it does not (docs/decisions.md, D7)'],
	['Guidance of record 0064 item 1 and of pr-513',
		'Guidance of decisions D12 and D14'],
	['\(records 0064 item 1 and pr-513\)', '(docs/decisions.md, D12 and D14)'],
	['\(record 0064, items 4 to 7\)', '(docs/decisions.md, D16 to D19)'],
	['\(0064: decline and cancel differ\)',
		'(docs/decisions.md, D19: decline and cancel differ)'],
	['\(record 0009, 0064 item 6\)', '(docs/decisions.md, D18)'],
	['titled as 0064 says', 'titled as decision D19 says'],
	['Record 0064 is unchanged by the default', 'Decision D16 is unchanged by the default'],
	['whatever it returns \(record 0064\)', 'whatever it returns (docs/decisions.md, D16)'],
	['the rules of record 0064 for a request', 'the rules of decisions D14 to D24 for a request'],
	['0064 holds at every', 'decision D16 holds at every'],
);

# cite keeps a comment's line break: if the citation matched across lines,
# the last space of its replacement becomes that break.
sub cite {
	my ($matched, $repl) = @_;
	if ($matched =~ /(\n[ \t]*\/\/[ \t]*)/) {
		my $break = $1;
		$repl =~ s/ (?=[^ ]*\z)/$break/;
	}
	return $repl;
}

my $n = 0;
for my $p (@phrases) {
	my ($words, $repl) = @$p;
	(my $re = $words) =~ s/ /$S/g;
	$n += s{$re}{cite($&, $repl)}ge;
}

my $rec = qr{(?:(?:[Rr]ecord|ADR)$S)?0064};
# The amendment's items: (0064 amendment item 7), record 0064's amendment (item 1), ...
$n += s{\($rec(?:'s)?${S}amendment,?${S}items?$S(\d+)\)}{cite($&, "(docs/decisions.md, $amend{$1})")}ge;
$n += s{$rec(?:'s)?${S}amendment,?$S(?:\(item$S(\d+)\)|items?$S(\d+))}{cite($&, 'decision ' . $amend{$1 // $2})}ge;
# The items: (0064 item 6), (ADR 0064, item 7), 0064 item 5's wording, ...
$n += s{\($rec,?${S}items?$S(\d+)\)}{cite($&, "(docs/decisions.md, $item{$1})")}ge;
$n += s{(?<![\w/])$rec,?${S}items?$S(\d+)}{cite($&, "decision $item{$1}")}ge;

print STDERR "$n\n" if $n;
PERL
)

mapfile -t files < <(grep -rlE "$leftover" --include='*.go' "$root" || true)
total=0
for f in "${files[@]}"; do
	before=$(mktemp)
	cp "$f" "$before"
	counted=$(mktemp)
	perl -0777 -i -pe "$rules" "$f" 2>"$counted"
	n=$(cat "$counted")
	rm -f "$counted"
	[ -n "$n" ] || n=0
	if [ "$n" -gt 0 ]; then
		diff -U0 --label "a/${f#"$root"/}" --label "b/${f#"$root"/}" "$before" "$f" || true
		total=$((total + n))
	fi
	rm -f "$before"
done
echo "cite-decisions: rewrote $total citations in ${#files[@]} files under $root"

if grep -rnE "$leftover" --include='*.go' "$root"; then
	echo "cite-decisions: the citations above have no rule; add one to $0 or cite docs/decisions.md by hand" >&2
	exit 1
fi
