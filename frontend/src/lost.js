// The sentence a page shows once its kernel is gone for good, worded from what the
// page holds: an app's table kept after every move (widgets/saved.py marks the
// kept game with data-save once there is one) is offered again on reload as
// "Continue this game"; an app with no unfinished game of the learner's (none moved
// yet, or the game ended) has nothing kept;
// a lesson page (or an app with no table to keep) starts again from the top.

const LOST = "This page lost its connection to the server, and its work there has ended. ";

/** What the notice says on a page whose kernel is lost, `doc` being the page. */
export function lostWords(doc) {
  if (doc.querySelector(".rummy-game-save-out [data-save]")) {
    return LOST + "Your game is kept: reload the page and press \u201cContinue this game\u201d " +
      "to play on from where you were.";
  }
  if (doc.querySelector(".rummy-game-keeper")) {
    return LOST + "There was no unfinished game of yours to keep: " +
      "reload the page to start a new one.";
  }
  return LOST + "What was on this page is not kept: reload it to start it again from the top.";
}
