/**
 * Questions asked while the process's code runs, answered by one call a little later: many calls'
 * round trips to a store become one, and each caller still gets its own answer.
 */
interface Batch<Question, Answer> {
  questions: Question[];
  weight: number;
  answers: Promise<Answer[]>;
  send(): void;
}

export interface TurnBatchOptions<Question> {
  /**
   * When an open batch is sent: `turn-end`, once the event loop's turn is over (the questions of
   * every call served in it); `next-tick`, before the event loop goes on (the questions of one run
   * of code: a timer's, a request's), at the tick node:http sends what that run wrote.
   */
  at?: 'turn-end' | 'next-tick';
  /** Questions in one call at most: the next one starts another call. */
  most?: number;
  /**
   * What a question weighs (its bytes), and what a call may weigh at most: a question that would
   * take the open call past it goes in the next one (alone, if it weighs more on its own).
   */
  weigh?: (question: Question) => number;
  mostWeight?: number;
  /** Told once of a call that failed, whose questions all fail with its error. */
  onFailure?: (error: unknown) => void;
}

export class TurnBatch<Question, Answer> {
  private open: Batch<Question, Answer> | undefined;
  private readonly at: 'turn-end' | 'next-tick';
  private readonly most: number;
  private readonly mostWeight: number;

  /** @param answerAll answers the questions, in order. */
  constructor(
    private readonly answerAll: (questions: Question[]) => Promise<Answer[]>,
    private readonly options: TurnBatchOptions<Question> = {},
  ) {
    this.at = options.at ?? 'turn-end';
    this.most = options.most ?? 256;
    this.mostWeight = options.mostWeight ?? Infinity;
  }

  async ask(question: Question): Promise<Answer> {
    const weight = this.options.weigh?.(question) ?? 0;
    if (this.open && this.open.weight + weight > this.mostWeight) this.open.send();
    const batch = (this.open ??= this.start());
    const i = batch.questions.push(question) - 1;
    batch.weight += weight;
    if (batch.questions.length >= this.most || batch.weight >= this.mostWeight) batch.send();
    return (await batch.answers)[i] as Answer;
  }

  /** Sends the open batch now: what is asked afterwards goes in a later call. */
  flush(): void {
    this.open?.send();
  }

  private start(): Batch<Question, Answer> {
    let send!: () => void;
    const batch: Batch<Question, Answer> = {
      questions: [],
      weight: 0,
      answers: new Promise<Answer[]>((resolve, reject) => {
        let sent = false;
        send = () => {
          if (sent) return;
          sent = true;
          if (this.open === batch) this.open = undefined;
          const fail = (error: unknown) => {
            this.options.onFailure?.(error);
            reject(error);
          };
          const { length } = batch.questions;
          try {
            this.answerAll(batch.questions).then((answers: unknown) => {
              // Every question gets its own answer, or the call failed: none is left undefined.
              if (Array.isArray(answers) && answers.length === length) resolve(answers as Answer[]);
              else
                fail(new Error(`an answer that is not one per question: ${String(answers).slice(0, 100)}`));
            }, fail);
          } catch (error) {
            fail(error);
          }
        };
      }),
      send: () => send(),
    };
    if (this.at === 'next-tick') process.nextTick(batch.send);
    else setImmediate(batch.send);
    return batch;
  }
}
