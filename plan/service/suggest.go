package service

// closest returns the candidate nearest to s by edit distance, if it is
// near enough to be a plausible typo (at most a third of its length, and at
// least 2, edits away).
func closest(s string, candidates []string) (string, bool) {
	longest := 0
	for _, c := range candidates {
		longest = max(longest, len(c))
	}
	best, bestDist := nearestWithin(s, candidates, max(2, longest/3))
	limit := max(2, len(best)/3)
	return best, bestDist >= 0 && bestDist <= limit
}

// nearestWithin returns the candidate nearest to s by edit distance among
// those at most limit edits away (any, for a negative limit), and that
// distance; -1 when there is none. The difference in
// length bounds the distance from below, so far-off candidates, and any
// candidate for a huge s, cost nothing.
func nearestWithin(s string, candidates []string, limit int) (string, int) {
	best, bestDist := "", -1
	for _, c := range candidates {
		if limit >= 0 && abs(len(s)-len(c)) > limit {
			continue
		}
		if d := editDistance(s, c); (limit < 0 || d <= limit) && (bestDist < 0 || d < bestDist) {
			best, bestDist = c, d
		}
	}
	return best, bestDist
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Closest returns the candidate nearest to s by edit distance when it is
// near enough to be a plausible typo, as annotation keys are suggested;
// the command line suggests flags with it too.
func Closest(s string, candidates []string) (string, bool) { return closest(s, candidates) }

// Nearest returns the candidate nearest to s by edit distance among those
// at most limit edits away, and whether there is one: for names where
// Closest's third of the length is too lenient (ilb-subnet is three edits
// from aks-subnet).
func Nearest(s string, candidates []string, limit int) (string, bool) {
	best, d := nearestWithin(s, candidates, limit)
	return best, d >= 0
}
