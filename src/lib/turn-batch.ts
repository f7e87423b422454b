/**
 * Questions asked in one turn of the event loop, answered by one call once the turn ends: many
 * calls' round trips to a store become one, and each caller still gets its own answer.
 */
interface Batch<Question, Answer> {
  questions: Question[];
  answers: Promise<Answer[]>;
}

export class TurnBatch<Question, Answer> {
  private open: Batch<Question, Answer> | undefined;

  /**
   * @param answerAll answers the questions, in order.
   * @param most questions in one call at most: the next one starts another call.
   */
  constructor(
    private readonly answerAll: (questions: Question[]) => Promise<Answer[]>,
    private readonly most = 256,
  ) {}

  async ask(question: Question): Promise<Answer> {
    const batch = (this.open ??= this.start());
    const i = batch.questions.push(question) - 1;
    if (batch.questions.length >= this.most) this.open = undefined;
    return (await batch.answers)[i] as Answer;
  }

  private start(): Batch<Question, Answer> {
    const questions: Question[] = [];
    const answers = new Promise<Answer[]>((resolve, reject) =>
      setImmediate(() => {
        if (this.open?.questions === questions) this.open = undefined;
        try {
          this.answerAll(questions).then(resolve, reject);
        } catch (error) {
          reject(error);
        }
      }),
    );
    return { questions, answers };
  }
}
