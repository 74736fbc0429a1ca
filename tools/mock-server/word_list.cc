#include "word_list.h"

namespace servebench::mock {

const std::vector<std::string>& mock_word_list() {
  static const std::vector<std::string> kWords = {
      " the",     " of",     " and",    " a",       " to",     " in",      " that",    " his",
      " it",      " he",     " but",    " as",      " is",     " with",    " was",     " for",
      " all",     " this",   " at",     " ocean",   " by",     " not",     " from",    " him",
      " so",      " on",     " be",     " one",     " you",    " there",   " now",     " had",
      " have",    " or",     " were",   " they",    " which",  " like",    " me",      " then",
      " their",   " what",   " some",   " when",    " are",    " an",      " my",      " no",
      " out",     " man",    " into",   " up",      " ship",   " more",    " if",      " them",
      " we",      " sea",    " old",    " would",   " other",  " been",    " over",    " these",
      " will",    " though", " down",   " only",    " its",    " such",    " who",     " yet",
      " head",    " boat",   " time",   " long",    " her",    " any",     " here",    " very",
      " still",   " about",  " than",   " do",      " those",  " great",   " said",    " before",
      " two",     " must",   " most",   " white",   " last",   " see",     " way",     " after",
      " again",   " did",    " how",    " your",    " little", " round",   " while",   " three",
      " say",     " men",    " may",    " can",     " first",  " through", " every",   " well",
      " being",   " much",   " where",  " off",     " good",   " could",   " same",    " hand",
      " side",    " our",    " never",  " ever",    " own",    " look",    " himself", " almost",
      " go",      " even",   " water",  " thing",   " should", " might",   " away",    " come",
      " made",    " world",  " day",    " life",    " fish",   " many",    " seen",    " far",
      " back",    " line",   " let",    " without", " sort",   " know",    " god",     " right",
      " thought", " night",  " part",   " once",    " air",    " whole",   " take",    " half",
      " against", " things", " soon",   " hands",   " came",   " small",   " each",    " feet",
      " both",    " full",   " think",  " under",   " she",    " between", " why",     " just",
      " saw",     " place",  " called", " nothing", " found",  " another", " times",   " make",
      " heard",   " body",   " high",   " stand",   " sight",  " sun",     " end",     " new",
      " shall",   " get",    " face",   " few",     " dead",   " black",   " because", " heart",
  };
  return kWords;
}

}  // namespace servebench::mock
