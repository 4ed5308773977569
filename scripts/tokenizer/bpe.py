"""Byte-level BPE (Sennrich et al. 2016; GPT-2's byte variant): training and encoding.

Tokens are byte strings; ids 0..255 are the single bytes, and merge k (rank k) makes token 256 + k.
Training counts pieces once (pre_tokenize), then repeatedly merges the most frequent adjacent pair
inside pieces, updating only the pieces that hold it. Ties go to the pair whose (left bytes, right
bytes) sorts first, so the result depends on the text alone.
"""
import heapq


class Vocabulary:
    def __init__(self):
        self.token_bytes = [bytes([byte]) for byte in range(256)]  # id -> bytes
        self.merges = []  # rank -> (left id, right id)
        self.ids = {data: index for index, data in enumerate(self.token_bytes)}

    def add_merge(self, left, right):
        merged = self.token_bytes[left] + self.token_bytes[right]
        self.merges.append((left, right))
        self.token_bytes.append(merged)
        self.ids[merged] = len(self.token_bytes) - 1
        return len(self.token_bytes) - 1


def force_whole_characters(vocabulary, characters):
    """Adds the merges that make each character (in the given order) one token: its UTF-8 bytes
    merged left to right, sharing merges already present (many characters share a lead pair)."""
    for character in characters:
        data = character.encode("utf-8")
        current = data[:1]
        for byte in data[1:]:
            merged = current + bytes([byte])
            if merged not in vocabulary.ids:
                vocabulary.add_merge(vocabulary.ids[current], byte)
            current = merged


def _merge_word(symbols, left, right, new_id):
    out, index = [], 0
    while index < len(symbols):
        if index + 1 < len(symbols) and symbols[index] == left and symbols[index + 1] == right:
            out.append(new_id)
            index += 2
        else:
            out.append(symbols[index])
            index += 1
    return out


def encode_piece(vocabulary, data, ranks):
    """The token ids of one piece's bytes: apply the lowest-ranked merge present, repeat."""
    symbols = list(data)
    while len(symbols) > 1:
        best = min(((ranks.get((a, b), len(ranks)), a, b) for a, b in zip(symbols, symbols[1:])))
        if best[0] == len(ranks):
            break
        _, left, right = best
        symbols = _merge_word(symbols, left, right, vocabulary.ids[vocabulary.token_bytes[left] + vocabulary.token_bytes[right]])
    return symbols


def learn_merges(vocabulary, piece_counts, vocabulary_size, min_count=2):
    """Adds merges learned from `piece_counts` ({bytes: count}) until the vocabulary has
    `vocabulary_size` tokens or no pair occurs `min_count` times. Pieces are first encoded with the
    merges already in the vocabulary. A pair whose bytes are already a token (reachable another
    way) is never merged again, so every token's bytes are unique."""
    ranks = {pair: rank for rank, pair in enumerate(vocabulary.merges)}
    words = [encode_piece(vocabulary, data, ranks) for data in piece_counts]
    counts = list(piece_counts.values())
    pair_counts, pair_words = {}, {}
    for index, symbols in enumerate(words):
        for pair in zip(symbols, symbols[1:]):
            pair_counts[pair] = pair_counts.get(pair, 0) + counts[index]
            pair_words.setdefault(pair, set()).add(index)

    def entry(pair):
        return (-pair_counts[pair], vocabulary.token_bytes[pair[0]], vocabulary.token_bytes[pair[1]], pair)

    heap = [entry(pair) for pair in pair_counts]
    heapq.heapify(heap)
    while len(vocabulary.token_bytes) < vocabulary_size and heap:
        negative_count, left_bytes, right_bytes, pair = heapq.heappop(heap)
        if pair_counts.get(pair, 0) != -negative_count:
            continue  # stale entry; the current count has its own
        if -negative_count < min_count:
            break
        if left_bytes + right_bytes in vocabulary.ids:
            pair_counts[pair] = 0
            continue
        new_id = vocabulary.add_merge(*pair)
        changed = set()
        for index in sorted(pair_words.pop(pair)):
            old = words[index]
            new = _merge_word(old, pair[0], pair[1], new_id)
            count = counts[index]
            for old_pair in zip(old, old[1:]):
                pair_counts[old_pair] -= count
                changed.add(old_pair)
                words_with = pair_words.get(old_pair)
                if words_with is not None:
                    words_with.discard(index)
            for new_pair in zip(new, new[1:]):
                pair_counts[new_pair] = pair_counts.get(new_pair, 0) + count
                pair_words.setdefault(new_pair, set()).add(index)
                changed.add(new_pair)
            words[index] = new
        pair_counts.pop(pair, None)
        for changed_pair in changed:
            if pair_counts.get(changed_pair, 0) > 0:
                heapq.heappush(heap, entry(changed_pair))
    return vocabulary
