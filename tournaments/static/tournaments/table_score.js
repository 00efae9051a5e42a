/* Law 77 on the table device: the score of what the pad says, worked out with no network.
 *
 * The same rules as the scoring core (tournaments/scoring/contracts.py), so East-West see
 * NS +400 before they confirm, offline too; tests/js/table_score.test.js checks every level,
 * strain, doubling, vulnerability and trick count against a table the core generates
 * (tests/js/contract_scores.json, kept equal to the core by tests/scoring/test_js_scores.py).
 * The server scores again when the result arrives; its number is the one stored.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.TableScore = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  /* The declaring side's score (negative when the contract fails): level 1-7, strain C D H
   * S NT, doubled 0/1/2, tricks 0-13 won by declarer, vulnerable true/false. */
  function contractScore(level, strain, doubled, tricks, vulnerable) {
    var need = level + 6;
    if (tricks < need) {
      var down = need - tricks;
      if (doubled === 0) return -down * (vulnerable ? 100 : 50);
      var base = vulnerable ? 200 + 300 * (down - 1)
        : 100 + 200 * Math.min(down - 1, 2) + 300 * Math.max(down - 3, 0);
      return -base * doubled;
    }
    var perTrick = strain === "C" || strain === "D" ? 20 : 30;
    var trickScore = (perTrick * level + (strain === "NT" ? 10 : 0)) * Math.pow(2, doubled);
    var score = trickScore + (trickScore >= 100 ? (vulnerable ? 500 : 300) : 50);
    if (level === 6) score += vulnerable ? 750 : 500;
    else if (level === 7) score += vulnerable ? 1500 : 1000;
    score += 50 * doubled;
    var over = tricks - need;
    score += doubled === 0 ? over * perTrick : over * (vulnerable ? 200 : 100) * doubled;
    return score;
  }

  function isVulnerable(vulnerability, seat) {
    if (!vulnerability) return false;
    if (vulnerability === "All") return true;
    return vulnerability.indexOf(seat) >= 0;
  }

  /* The NS-point-of-view score; ``contract`` null when the board was passed out. */
  function nsScore(contract, declarer, tricks, vulnerability) {
    if (!contract) return 0;
    var score = contractScore(contract.level, contract.strain, contract.doubled, tricks,
      isVulnerable(vulnerability, declarer));
    return declarer === "N" || declarer === "S" ? score : -score;
  }

  /* What the pad's buttons say (level, strain, double, declarer, made) → {ns} or null while
   * something is missing or impossible; Pass scores 0. */
  function fromPad(picks, vulnerability) {
    if (picks.level === "PASS") return { ns: 0 };
    var level = parseInt(picks.level, 10);
    if (!(level >= 1 && level <= 7) || !picks.strain || !picks.declarer || !picks.made) {
      return null;
    }
    var tricks = level + 6 + (picks.made === "=" ? 0 : parseInt(picks.made, 10));
    if (!(tricks >= 0 && tricks <= 13)) return null;
    var doubled = picks.double === "XX" ? 2 : (picks.double === "X" ? 1 : 0);
    return { ns: nsScore({ level: level, strain: picks.strain, doubled: doubled },
      picks.declarer, tricks, vulnerability) };
  }

  var SUIT = { C: "♣", D: "♦", H: "♥", S: "♠" };

  /* The pad's result as a line a player reads: "3NT= N · NS +400", "4♠X−1 E · NS +100",
   * "Passed out · 0"; ``words``: the page's translations {nt, ns, ew, passed, seats}. */
  function describe(picks, vulnerability, words) {
    var scored = fromPad(picks, vulnerability);
    if (!scored) return "";
    var points = scored.ns === 0 ? "0"
      : (scored.ns > 0 ? words.ns : words.ew) + " +" + Math.abs(scored.ns);
    if (picks.level === "PASS") return words.passed + " · " + points;
    var made = picks.made === "=" ? "=" : picks.made.replace("-", "−");
    var seat = (words.seats || {})[picks.declarer] || picks.declarer;
    return picks.level + (SUIT[picks.strain] || words.nt) + (picks.double || "") + made + " " +
      seat + " · " + points;
  }

  return { contractScore: contractScore, nsScore: nsScore, fromPad: fromPad,
    isVulnerable: isVulnerable, describe: describe };
});
